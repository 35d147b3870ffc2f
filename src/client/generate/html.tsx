/**
 * Rich text (`html` fields), shown only as DOMPurify leaves it: no scripts, no event handlers, no
 * `javascript:` links. Loaded on first use, so the sanitiser is not in the layout's chunk.
 */
import { useMemo } from 'react';
import { Box } from '@mui/material';
import DOMPurify from 'dompurify';
import { useRecordContext } from 'react-admin';
import type { ColumnProps } from './displays.tsx';

/** The sanitised markup of `value`; anything but text gives ''. */
export function sanitizeHtml(value: unknown): string {
  if (typeof value !== 'string' || !value) return '';
  // <style> could restyle the whole admin; forms could post anywhere.
  return DOMPurify.sanitize(value, { FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'] });
}

export default function HtmlField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const value = record?.[source];
  const clean = useMemo(() => sanitizeHtml(value), [value]);
  if (!clean) return emptyText ? <span>{emptyText}</span> : null;
  return (
    <Box
      className="html-content"
      sx={{ typography: 'body2', overflowWrap: 'anywhere', '& img': { maxWidth: '100%', height: 'auto' } }}
      // The one place markup from the server is rendered, and only after DOMPurify.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
