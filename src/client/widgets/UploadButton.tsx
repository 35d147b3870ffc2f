/**
 * The list toolbar's Upload button (`list.upload`: the media gallery). It opens a small dialog that
 * takes as many files as its endpoint declares an upload may carry (`pagefile`: 5, spec §9), judged
 * like the field widget judges them, shows them (as a gallery when more than 2), uploads them together
 * with a progress bar and a Cancel, then refreshes the list.
 */
import { useId, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { useRefresh } from 'react-admin';
import type { UploadOptions } from '../../manifest/index.ts';
import { GALLERY_ABOVE, uploadEndpointOf, uploadMessages } from '../../manifest/uploads.ts';
import { useToast } from '../shell/toast.tsx';
import { checkChosen, FilePicker, FilePreview, limitsText, UploadProgress } from './UploadWidget.tsx';
import { useUpload } from './use-upload.ts';

export function UploadButton({ upload }: { upload: UploadOptions }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<CloudUploadIcon />} onClick={() => setOpen(true)}>
        Upload
      </Button>
      {open && <UploadDialog upload={upload} onClose={() => setOpen(false)} />}
    </>
  );
}

function UploadDialog({ upload, onClose }: { upload: UploadOptions; onClose: () => void }) {
  const max = uploadEndpointOf(upload.endpoint).maxFiles;
  const toast = useToast();
  const refresh = useRefresh();
  const titleId = useId();
  const pickerId = useId();
  const [files, setFiles] = useState<File[]>([]);
  const { progress, busy, run, cancel } = useUpload(upload.endpoint);

  async function add(more: File[]) {
    // Judged with what was chosen before: adding to a choice may break the count.
    const problem = await checkChosen(more.length ? [...files, ...more] : more, upload.endpoint, max);
    if (problem) return toast(problem);
    setFiles((all) => [...all, ...more]);
  }

  async function send() {
    if (busy) return;
    const problem = await checkChosen(files, upload.endpoint, max);
    if (problem) return toast(problem);
    const urls = await run(files);
    if (!urls) return;
    toast({ severity: 'success', title: 'Success!', description: urls.length === 1 ? 'File uploaded successfully.' : `${urls.length} files uploaded successfully.` });
    onClose();
    refresh();
  }

  const gallery = files.length > GALLERY_ABOVE;
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Upload files</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <FilePicker
            id={pickerId}
            endpoint={upload.endpoint}
            max={max}
            disabled={busy}
            autoFocus
            describedBy={`${pickerId}__limits`}
            onPick={(more) => void add(more)}
          />
          <Typography id={`${pickerId}__limits`} variant="caption" color="text.secondary">
            {limitsText(upload.endpoint, max)} {uploadMessages.tooMany(max)}
          </Typography>
          {files.length > 0 && (
            <Box
              component="ul"
              aria-label="Chosen files"
              sx={{
                listStyle: 'none',
                p: 0,
                m: 0,
                ...(gallery
                  ? { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 1 }
                  : { display: 'flex', flexDirection: 'column', gap: 1 }),
              }}
            >
              {files.map((file, i) => (
                <Box
                  component="li"
                  key={`${i}-${file.name}`}
                  sx={{ display: 'flex', alignItems: 'center', gap: 1, flexDirection: gallery ? 'column' : 'row', minWidth: 0 }}
                >
                  <FilePreview file={file} size={gallery ? 110 : 72} />
                  <Typography variant="body2" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
                    {file.name}
                  </Typography>
                  <Tooltip title={`Remove ${file.name}`}>
                    <span>
                      <IconButton
                        size="small"
                        aria-label={`Remove ${file.name}`}
                        disabled={busy}
                        onClick={() => setFiles((all) => all.filter((_, j) => j !== i))}
                      >
                        <CloseIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </Box>
              ))}
            </Box>
          )}
          {busy && <UploadProgress fraction={progress ?? 0} onCancel={() => cancel()} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={busy}>
          {busy ? 'Uploading' : 'Upload'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
