/**
 * The `media-gallery-image-details` view (spec §2): the uploaded file's preview with a download
 * action, its name, type and size. Spec §8: download errors are only logged; a short note says so.
 */
import { useState } from 'react';
import { Alert, Box, Button, DialogContent, Link, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import DescriptionIcon from '@mui/icons-material/Description';
import { downloadFile, storedPathOf } from '../../providers/upload.ts';
import { LOGO_FALLBACK } from '../../shell/Thumbnail.tsx';
import { CloseActions } from '../DialogButtons.tsx';
import { labelOf } from '../../../manifest/index.ts';
import { media } from '../../../../resources/system.ts';

export interface GalleryImageViewProps {
  record: Record<string, unknown>;
  onClose: () => void;
}

/** The labels the media manifest gives the fields this view shows. */
const LABELS = Object.fromEntries(
  ['name', 'type', 'size'].map((name) => [name, labelOf(media.fields.find((f) => f.name === name)!)]),
) as Record<'name' | 'type' | 'size', string>;

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

/** `12.3 KB (12,583 bytes)` */
export function sizeText(bytes: unknown): string {
  const n = Number(bytes);
  if (!Number.isFinite(n) || n < 0) return '';
  const exact = `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`;
  if (n < 1024) return exact;
  const [value, unit] = n < 1024 * 1024 ? [n / 1024, 'KB'] : [n / 1024 / 1024, 'MB'];
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${unit} (${exact})`;
}

/** The URL that downloads a file: stored files are asked for as an attachment. */
export function downloadUrlOf(url: string): string {
  if (!storedPathOf(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}download=1`;
}

export function GalleryImageView({ record, onClose }: GalleryImageViewProps) {
  const url = text(record.url).trim();
  const name = text(record.name).trim() || url.split('/').pop() || 'file';
  const type = text(record.type).trim();
  const size = sizeText(record.size);
  const image = type ? type.startsWith('image/') : !/\.pdf($|[?#])/i.test(url);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function download() {
    setBusy(true);
    setFailed(false);
    try {
      await downloadFile(downloadUrlOf(url), name);
    } catch (error) {
      console.error('Download failed', error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <DialogContent>
        <Stack spacing={2}>
          <Box sx={{ display: 'flex', justifyContent: 'center', bgcolor: 'action.hover', borderRadius: 1, p: 1 }}>
            {!url ? (
              <Typography color="text.secondary">No file.</Typography>
            ) : image ? (
              <Box
                component="img"
                src={url}
                alt={`Preview of ${name}`}
                onError={(e) => {
                  const img = e.currentTarget as HTMLImageElement;
                  if (!img.dataset.fallback) {
                    img.dataset.fallback = '1';
                    img.src = LOGO_FALLBACK;
                  }
                }}
                sx={{ maxWidth: '100%', maxHeight: '60vh', height: 'auto', display: 'block', objectFit: 'contain' }}
              />
            ) : (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 3 }}>
                <DescriptionIcon color="action" fontSize="large" />
                <Link href={url} target="_blank" rel="noopener noreferrer">
                  Open {name}
                </Link>
              </Stack>
            )}
          </Box>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
            <Typography component="dt" color="text.secondary">
              {LABELS.name}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
            {type && (
              <>
                <Typography component="dt" color="text.secondary">
                  {LABELS.type}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  {type}
                </Typography>
              </>
            )}
            {size && (
              <>
                <Typography component="dt" color="text.secondary">
                  {LABELS.size}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  {size}
                </Typography>
              </>
            )}
          </Box>
          {failed && (
            <Alert severity="warning" variant="outlined">
              The download did not complete. Try again later.
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <CloseActions onClose={onClose}>
        <Button startIcon={<DownloadIcon />} onClick={() => void download()} disabled={!url || busy}>
          {busy ? 'Downloading' : 'Download'}
        </Button>
      </CloseActions>
    </>
  );
}
