/**
 * Stands in for `markdown-to-jsx/react` in the built client (see the plugin in vite.config.ts).
 * RJSF renders Markdown only for descriptions and help a uiSchema marks as Markdown (ours never
 * do) and for its own short notices (an unsupported field, a file's name and size), which read
 * fine as plain text. The form chunk loses the parser (about a fifth of it) and, with it, the only
 * `eval` it held (markdown-to-jsx's opt-in `evalUnserializableExpressions`).
 */
import type { ReactNode } from 'react';

export function Markdown({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}
