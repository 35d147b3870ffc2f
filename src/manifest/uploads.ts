/**
 * What the upload endpoints take (spec §5 Upload, §7 Uploads, §9) and the widget's messages (§8 File
 * validation). The widget and the server's upload route both read these, so a type the widget offers is
 * a type the server accepts, and the limits agree.
 */
import type { UploadEndpoint } from './types.ts';

/** File types by the extension the server gives a stored file; each is recognised by its content. */
export const FILE_TYPES = {
  png: { mime: 'image/png', image: true },
  jpg: { mime: 'image/jpeg', image: true },
  webp: { mime: 'image/webp', image: true },
  pdf: { mime: 'application/pdf', image: false },
} as const;
export type FileType = keyof typeof FILE_TYPES;

/** Spec §5: webp, png, jpeg, jpg (jpeg and jpg are one type, stored as `.jpg`). */
export const IMAGE_TYPES: readonly FileType[] = ['webp', 'png', 'jpg'];

/** The most bytes one file may have (spec §9: the CV hint is 5 MB; images are held to the same). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** Spec §9: the widget's default maximum number of files. */
export const DEFAULT_MAX_FILES = 5;

/** More than this many files at once shows the widget as a gallery (spec §9). */
export const GALLERY_ABOVE = 2;

/** How an endpoint's stored files are served (ASSETS_PATH). */
export interface EndpointDeclaration {
  /** The file types it takes, each recognised by its content. */
  types: readonly FileType[];
  /**
   * `public`: served to anyone with the URL, cached (images of the site). `private`: served only to
   * whoever may read a record that holds the file (the record's read roles and owner rule, as for the
   * record itself), to its uploader, and never cached; to anyone else its URL answers 404, as a URL
   * that names no file does.
   */
  visibility: 'public' | 'private';
}

/**
 * Every upload endpoint: images everywhere; PDFs where documents are filed (invoices, pages, account
 * documents). Payout invoices and account documents (national ids, trade licences) are private.
 */
export const UPLOAD_ENDPOINT_DECLARATIONS: Record<UploadEndpoint, EndpointDeclaration> = {
  payoutInvoice: { types: [...IMAGE_TYPES, 'pdf'], visibility: 'private' },
  blogcategory: { types: IMAGE_TYPES, visibility: 'public' },
  pagefile: { types: [...IMAGE_TYPES, 'pdf'], visibility: 'public' },
  banners: { types: IMAGE_TYPES, visibility: 'public' },
  profilepics: { types: IMAGE_TYPES, visibility: 'public' },
  documents: { types: [...IMAGE_TYPES, 'pdf'], visibility: 'private' },
};

/** What each endpoint accepts (UPLOAD_ENDPOINT_DECLARATIONS). */
export const ENDPOINT_TYPES = Object.fromEntries(
  Object.entries(UPLOAD_ENDPOINT_DECLARATIONS).map(([name, d]) => [name, d.types]),
) as Record<UploadEndpoint, readonly FileType[]>;

/** Whether the files of `endpoint` are private (UPLOAD_ENDPOINT_DECLARATIONS). */
export const isPrivateEndpoint = (endpoint: UploadEndpoint): boolean => UPLOAD_ENDPOINT_DECLARATIONS[endpoint].visibility === 'private';

/** The `accept` attribute of a file input for an endpoint. */
export function acceptOf(endpoint: UploadEndpoint): string {
  return ENDPOINT_TYPES[endpoint]
    .flatMap((t) => (t === 'jpg' ? ['.jpg', '.jpeg', FILE_TYPES.jpg.mime] : [`.${t}`, FILE_TYPES[t].mime]))
    .join(',');
}

/** Spec §8 File validation, exactly (spelling included). */
export const uploadMessages = {
  validationTitle: 'File Validation error',
  totalExceeded: (n: number) => `Total files cannot exceed ${n}.`,
  tooMany: (n: number) => `You can only upload up to ${n} files.`,
  noFilesTitle: 'Validation Error',
  noFiles: 'Please selected files',
  selectWarning: (n: number) => `Files select error. Please select ${n} files.`,
  /** Ours: the spec names no text for these. */
  badType: (name: string, allowed: readonly FileType[]) => `${name}: only ${allowed.join(', ')} files are allowed.`,
  tooLarge: (name: string) => `${name} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`,
  unknownEndpoint: (name: string) => `Unknown upload endpoint '${name}'.`,
} as const;

/** Where uploaded files are served from: the images assets path (spec §2). */
export const ASSETS_PATH = '/assets/images';
