/**
 * The upload endpoints (spec §5 Upload, §7 Uploads, §9) and the widget's messages (§8 File validation),
 * each declared once here: what an endpoint takes (types, size, count) and who may fetch its files.
 * A field names its endpoint (`upload: { endpoint: 'products' }`); the widget, the server's upload route,
 * the file route, the API document and the spec check all read the declaration, so a type the widget
 * offers is a type the server accepts, and the limits and texts agree.
 */

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

/** The most bytes one file may have unless its endpoint says less (spec §9: the CV hint is 5 MB; images are held to the same). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** Spec §9: the widget's default maximum number of files. */
export const DEFAULT_MAX_FILES = 5;

/** More than this many files at once shows the widget as a gallery (spec §9). */
export const GALLERY_ABOVE = 2;

/** What one upload endpoint takes, and how its stored files are served (ASSETS_PATH/<endpoint>/…). */
export interface EndpointDeclaration {
  /** What the media gallery calls its files ('Product image'). */
  label: string;
  /** The file types it takes, each recognised by its content. */
  types: readonly FileType[];
  /** The most bytes one file may have (at most MAX_FILE_BYTES, the multipart parser's ceiling). */
  maxBytes: number;
  /**
   * How many files one upload may carry: the widget's N ('You can only upload up to N files.') and the
   * server's. A field holds one URL, so its widget takes one whatever this says.
   */
  maxFiles: number;
  /**
   * `public`: served to anyone with the URL, cached (images of the site). `private`: served only to
   * whoever may read a record that holds the file (the record's read roles and owner rule, as for the
   * record itself), to its uploader, and never cached; to anyone else its URL answers 404, as a URL
   * that names no file does.
   */
  visibility: 'public' | 'private';
}

/** An endpoint's declaration with the spec's defaults: 5 MB a file, 5 files an upload (§9). */
const endpoint = (d: Pick<EndpointDeclaration, 'label' | 'types' | 'visibility'> & Partial<EndpointDeclaration>): EndpointDeclaration => ({
  maxBytes: MAX_FILE_BYTES,
  maxFiles: DEFAULT_MAX_FILES,
  ...d,
});

/**
 * Every upload endpoint. The five of spec §7 keep the spec's default of 5 files an upload (callers
 * outside this app may send several); those of our own are each filled by one single-URL field, so
 * they take one file. Images everywhere; PDFs where documents are filed (invoices, pages, account
 * documents). Payout invoices and account documents (national ids, trade licences) are private.
 * Files stored before an endpoint of its own existed (a product image under `blogcategory`) stay where
 * they are: their URLs keep working, under the old endpoint's rules.
 */
export const UPLOAD_ENDPOINT_DECLARATIONS = {
  payoutInvoice: endpoint({ label: 'Payout invoice', types: [...IMAGE_TYPES, 'pdf'], visibility: 'private' }),
  blogcategory: endpoint({ label: 'Blog image', types: IMAGE_TYPES, visibility: 'public' }),
  pagefile: endpoint({ label: 'Page file', types: [...IMAGE_TYPES, 'pdf'], visibility: 'public' }),
  banners: endpoint({ label: 'Banner', types: IMAGE_TYPES, visibility: 'public' }),
  profilepics: endpoint({ label: 'Profile picture', types: IMAGE_TYPES, visibility: 'public' }),
  // Ours (§7 names no endpoint for these): one per form whose images were filed under another's.
  products: endpoint({ label: 'Product image', types: IMAGE_TYPES, visibility: 'public', maxFiles: 1 }),
  childcategories: endpoint({ label: 'Child category image', types: IMAGE_TYPES, visibility: 'public', maxFiles: 1 }),
  subcategories: endpoint({ label: 'Sub category image', types: IMAGE_TYPES, visibility: 'public', maxFiles: 1 }),
  topcategories: endpoint({ label: 'Top category image', types: IMAGE_TYPES, visibility: 'public', maxFiles: 1 }),
  documents: endpoint({ label: 'Account document', types: [...IMAGE_TYPES, 'pdf'], visibility: 'private', maxFiles: 1 }),
  paymentproofs: endpoint({ label: 'Proof of payment', types: IMAGE_TYPES, visibility: 'private', maxFiles: 1 }),
  // Spec §5/§9: a job application's CV, a PDF of at most 5 MB; the applicant's and the admins' only.
  cvresume: endpoint({ label: 'CV/Resume', types: ['pdf'], visibility: 'private', maxFiles: 1 }),
} satisfies Record<string, EndpointDeclaration>;

/** An upload endpoint's name, as sent with the files (`endpoint`) and as the first folder of a stored path. */
export type UploadEndpoint = keyof typeof UPLOAD_ENDPOINT_DECLARATIONS;

/** Every endpoint name (UPLOAD_ENDPOINT_DECLARATIONS). */
export const UPLOAD_ENDPOINTS = Object.keys(UPLOAD_ENDPOINT_DECLARATIONS) as readonly UploadEndpoint[];

/** Whether `name` is an endpoint's name (a request's `endpoint` is any text). */
export const isUploadEndpoint = (name: unknown): name is UploadEndpoint =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(UPLOAD_ENDPOINT_DECLARATIONS, name);

/** An endpoint's declaration. */
export const uploadEndpointOf = (name: UploadEndpoint): EndpointDeclaration => UPLOAD_ENDPOINT_DECLARATIONS[name];

/** What each endpoint accepts (UPLOAD_ENDPOINT_DECLARATIONS). */
export const ENDPOINT_TYPES = Object.fromEntries(
  Object.entries(UPLOAD_ENDPOINT_DECLARATIONS).map(([name, d]) => [name, d.types]),
) as Record<UploadEndpoint, readonly FileType[]>;

/** Whether the files of `endpoint` are private (UPLOAD_ENDPOINT_DECLARATIONS). */
export const isPrivateEndpoint = (endpoint: UploadEndpoint): boolean => UPLOAD_ENDPOINT_DECLARATIONS[endpoint].visibility === 'private';

/** The most files of any endpoint and the most bytes of any file: the multipart parser's ceilings. */
export const UPLOAD_CEILING = {
  files: Math.max(...Object.values(UPLOAD_ENDPOINT_DECLARATIONS).map((d) => d.maxFiles)),
  bytes: Math.max(...Object.values(UPLOAD_ENDPOINT_DECLARATIONS).map((d) => d.maxBytes)),
};

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
  tooLarge: (name: string, maxBytes: number = MAX_FILE_BYTES) => `${name} is larger than ${maxBytes / 1024 / 1024} MB.`,
  unknownEndpoint: (name: string) => `Unknown upload endpoint '${name}'.`,
} as const;

/** Where uploaded files are served from: the images assets path (spec §2). */
export const ASSETS_PATH = '/assets/images';
