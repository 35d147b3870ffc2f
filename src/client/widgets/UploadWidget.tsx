/**
 * The upload widget (spec §5 Upload, §8 File validation, §9): a drop zone with a "Choose files" button,
 * the chosen file judged here by the same limits the server keeps (count, size, type by content),
 * uploaded with a progress bar and a Cancel, then shown as a preview. The field's value stays the URL
 * the upload answered; "Enter a URL" keeps the plain URL input for records that hold a URL already.
 *
 * The pieces (`checkChosen`, `FilePicker`, `FilePreview`, `UploadProgress`) are shared with the media
 * gallery's Upload button, which uploads several files at once.
 */
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useUpload } from './use-upload.ts';
import { Box, Button, FormLabel, LinearProgress, Link, Stack, Typography } from '@mui/material';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DeleteIcon from '@mui/icons-material/Delete';
import DescriptionIcon from '@mui/icons-material/Description';
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import type { UploadEndpoint, UploadOptions } from '../../manifest/index.ts';
import { FILE_TYPES, GALLERY_ABOVE, acceptOf, uploadEndpointOf, uploadMessages, type FileType } from '../../manifest/uploads.ts';
import { SNIFF_BYTES, sniffFileType } from '../../domain/file-type.ts';
import { deleteUploaded } from '../providers/upload.ts';
import { Thumbnail } from '../shell/Thumbnail.tsx';
import { useToast, type Toast } from '../shell/toast.tsx';

/* ------------------------------------------------------------------------------------------------ */
/* Judging chosen files                                                                             */

async function headOf(file: Blob): Promise<Uint8Array> {
  const part = file.slice(0, SNIFF_BYTES);
  if (typeof part.arrayBuffer === 'function') return new Uint8Array(await part.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(part);
  });
}

/** The type of a file by its first bytes (as the server judges it), not by its name. */
export async function fileTypeOf(file: Blob): Promise<FileType | undefined> {
  return sniffFileType(await headOf(file));
}

/**
 * What is wrong with a choice of files for `endpoint` taking at most `max`, as the toast to show, or
 * undefined when the files may be uploaded. The spec's texts (§8) for the count; ours for type and size,
 * by the endpoint's declaration (src/manifest/uploads.ts), as the server judges them.
 */
export async function checkChosen(files: readonly File[], endpoint: UploadEndpoint, max: number): Promise<Toast | undefined> {
  if (files.length === 0) return { severity: 'error', title: uploadMessages.noFilesTitle, description: uploadMessages.noFiles };
  if (files.length > max) {
    // A field that takes one file was given several: a selection to redo, not a limit broken.
    if (max === 1) return { severity: 'warning', title: uploadMessages.selectWarning(max) };
    return {
      severity: 'error',
      title: uploadMessages.validationTitle,
      description: `${uploadMessages.totalExceeded(max)}\n${uploadMessages.tooMany(max)}`,
    };
  }
  const { types: allowed, maxBytes } = uploadEndpointOf(endpoint);
  const problems: string[] = [];
  for (const file of files) {
    if (file.size > maxBytes) problems.push(uploadMessages.tooLarge(file.name, maxBytes));
    else if (!allowed.includes((await fileTypeOf(file)) as FileType)) problems.push(uploadMessages.badType(file.name, allowed));
  }
  return problems.length ? { severity: 'error', title: uploadMessages.validationTitle, description: problems.join('\n') } : undefined;
}


/** Limits in words: "PNG, JPG or WEBP, up to 5 MB each". */
export function limitsText(endpoint: UploadEndpoint, max: number): string {
  const { types: allowed, maxBytes } = uploadEndpointOf(endpoint);
  const types = allowed.map((t) => t.toUpperCase());
  const list = types.length > 1 ? `${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}` : types[0];
  const size = `up to ${maxBytes / 1024 / 1024} MB${max > 1 ? ' each' : ''}`;
  return `${list}, ${size}${max > 1 ? `, at most ${max} files` : ''}.`;
}

/* ------------------------------------------------------------------------------------------------ */
/* Pieces                                                                                           */

/** An object URL for a file, revoked when the file changes or the component goes. */
export function useObjectUrl(file: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') return setUrl(undefined);
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

const isImageUrl = (url: string) => !/\.pdf($|[?#])/i.test(url);

/** A preview of a chosen file (before upload) or a stored URL (after). PDFs show as a named link. */
export function FilePreview({ file, url, name, size = 96 }: { file?: File; url?: string; name?: string; size?: number }) {
  const local = useObjectUrl(file);
  const shown = local ?? url;
  const title = name ?? file?.name ?? url?.split('/').pop() ?? '';
  const image = file ? file.type !== FILE_TYPES.pdf.mime && !/\.pdf$/i.test(file.name) : url ? isImageUrl(url) : false;
  if (!shown) return null;
  if (!image)
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <DescriptionIcon color="action" />
        <Link href={shown} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </Link>
      </Stack>
    );
  return <Thumbnail src={shown} alt={title ? `Preview of ${title}` : 'Preview'} width={size} height={Math.round((size * 2) / 3)} />;
}

/** Upload progress with a Cancel for the upload in flight. */
export function UploadProgress({ fraction, onCancel }: { fraction: number; onCancel: () => void }) {
  const percent = Math.round(fraction * 100);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', width: '100%' }}>
      <LinearProgress variant="determinate" value={percent} aria-label="Upload progress" sx={{ flex: 1 }} />
      <Typography variant="caption" sx={{ minWidth: 36 }} aria-hidden>
        {percent}%
      </Typography>
      <Button size="small" onClick={onCancel}>
        Cancel upload
      </Button>
    </Stack>
  );
}

export interface FilePickerProps {
  /** Given to the Choose files button, so a label or an error focus reaches it. */
  id: string;
  endpoint: UploadEndpoint;
  max: number;
  disabled?: boolean;
  autoFocus?: boolean;
  /** What the drop zone says above the button. */
  prompt?: ReactNode;
  /** Ids of texts describing the picker (the limits, a hint). */
  describedBy?: string;
  onPick: (files: File[]) => void;
}

/**
 * A drop zone with a "Choose files" button (the keyboard's way in) over a hidden file input. Takes
 * any number of files, so a choice of too many can be told apart from a choice of none.
 */
export function FilePicker({ id, endpoint, max, disabled, autoFocus, prompt, describedBy, onPick }: FilePickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    onPick(Array.from(event.dataTransfer?.files ?? []));
  };
  return (
    <Box
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid={`${id}__dropzone`}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: over ? 'primary.main' : 'divider',
        bgcolor: over ? 'action.hover' : 'transparent',
        borderRadius: 1,
        p: 2,
        textAlign: 'center',
        opacity: disabled ? 0.6 : 1,
      }}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {prompt ?? (max > 1 ? 'Drag and drop files here, or' : 'Drag and drop a file here, or')}
      </Typography>
      <Button
        id={id}
        variant="outlined"
        startIcon={<CloudUploadIcon />}
        disabled={disabled}
        autoFocus={autoFocus}
        aria-describedby={describedBy}
        onClick={() => input.current?.click()}
      >
        Choose files
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label="Choose files"
        accept={acceptOf(endpoint)}
        disabled={disabled}
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          // Choosing the same file again must fire again.
          e.currentTarget.value = '';
          onPick(files);
        }}
      />
    </Box>
  );
}

/* ------------------------------------------------------------------------------------------------ */
/* The form widget                                                                                  */

/** What `ui:options` carries for an upload field (see dialogs/ui-schema.ts). */
interface UploadUiOptions {
  upload?: UploadOptions;
}

/**
 * The RJSF widget of an `image` or `file` field with `upload`. Uploads as soon as a valid file is
 * chosen; the value becomes the answered URL. Removing a file uploaded here (and not yet saved by the
 * form) also deletes it from the server.
 */
export function UploadWidget(props: WidgetProps) {
  const { id, label, hideLabel, required, disabled, readonly, autofocus, rawErrors = [], onChange } = props;
  const upload = (props.options as UploadUiOptions).upload!;
  // A field holds one URL: it takes one file, whatever its endpoint lets one upload carry.
  const max = Math.min(1, uploadEndpointOf(upload.endpoint).maxFiles);
  const toast = useToast();
  const value = typeof props.value === 'string' ? props.value.trim() : '';
  const [typing, setTyping] = useState(false);
  const [chosen, setChosen] = useState<File[]>([]);
  const { progress, busy, run, cancel } = useUpload(upload.endpoint);
  const [uploaded, setUploaded] = useState<string[]>([]);
  // URLs uploaded while this form is open: removing or replacing one deletes it on the server.
  const ours = useRef(new Set<string>());
  const off = disabled || readonly;
  const limitsId = `${id}__limits`;

  const forget = (urls: readonly string[]) => {
    for (const url of urls)
      if (ours.current.delete(url)) void deleteUploaded(url).catch((error) => console.error('Deleting an upload failed', error));
  };

  async function pick(files: File[]) {
    if (off || busy) return;
    const problem = await checkChosen(files, upload.endpoint, max);
    if (problem) {
      toast(problem);
      return;
    }
    setChosen(files);
    const urls = await run(files);
    setChosen([]);
    if (!urls) return;
    const previous = [...(value ? [value] : []), ...uploaded];
    for (const url of urls) ours.current.add(url);
    setUploaded(urls);
    onChange(urls[0] ?? '');
    // What this upload replaced goes, if it was uploaded here and never saved.
    forget(previous.filter((url) => !urls.includes(url)));
  }

  function remove() {
    forget([value, ...uploaded].filter(Boolean));
    setUploaded([]);
    onChange('');
  }

  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  const shown = busy ? [] : uploaded.length ? uploaded : value ? [value] : [];
  const gallery = Math.max(shown.length, chosen.length) > GALLERY_ABOVE;

  return (
    <Box role="group" aria-labelledby={`${id}__label`} sx={{ mt: 1 }}>
      {!hideLabel && (
        <FormLabel id={`${id}__label`} required={required} error={rawErrors.length > 0} sx={{ display: 'block', mb: 1 }}>
          {label}
        </FormLabel>
      )}
      {typing ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ flex: 1 }}>
            <BaseInputTemplate {...props} label={`${label} URL`} type="text" />
          </Box>
          {value && (
            <Box sx={{ pt: 1 }}>
              <Thumbnail src={value} width={75} height={45} alt="Image preview" />
            </Box>
          )}
        </Stack>
      ) : (
        <Stack spacing={1}>
          {busy ? (
            <Stack spacing={1} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
                {chosen.map((file, i) => (
                  <FilePreview key={i} file={file} />
                ))}
              </Stack>
              <Typography variant="body2">Uploading {chosen.map((f) => f.name).join(', ')}…</Typography>
              <UploadProgress fraction={progress ?? 0} onCancel={cancel} />
            </Stack>
          ) : shown.length ? (
            <Stack spacing={1} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
              <Box
                sx={
                  gallery
                    ? { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }
                    : { display: 'flex', gap: 1, flexWrap: 'wrap' }
                }
              >
                {shown.map((url) => (
                  <FilePreview key={url} url={url} size={gallery ? 96 : 150} />
                ))}
              </Box>
              <Stack direction="row" spacing={1}>
                <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={remove} disabled={off}>
                  Remove
                </Button>
              </Stack>
            </Stack>
          ) : null}
          {!busy && (
            <FilePicker
              id={id}
              endpoint={upload.endpoint}
              max={max}
              disabled={off}
              autoFocus={autofocus}
              describedBy={limitsId}
              prompt={shown.length ? 'Drop a file here to replace it, or' : undefined}
              onPick={(files) => void pick(files)}
            />
          )}
          <Typography id={limitsId} variant="caption" color="text.secondary">
            {limitsText(upload.endpoint, max)}
          </Typography>
        </Stack>
      )}
      {!busy && (
        <Link component="button" type="button" variant="body2" onClick={() => setTyping((t) => !t)} disabled={off} sx={{ mt: 0.5 }}>
          {typing ? 'Upload a file instead' : 'Enter a URL instead'}
        </Link>
      )}
    </Box>
  );
}
