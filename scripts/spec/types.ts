/**
 * The shapes of the specification catalogue: the spec (`/work/shared/spec.md`) retyped as data, so the
 * spec check can compare manifests with it. An optional property left undefined means "the spec does
 * not say": the check never compares it, so the catalogue must not guess.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Spec dialog kinds. `action` is a form whose call is not a plain create or update of its record. */
export type SpecDialogKind = 'create' | 'update' | 'remove' | 'details' | 'action';

/** The three dialog lists of spec §2. */
export type DialogGroup = 'catalogue' | 'people' | 'jobs';

/** A dialog type of spec §2, with what §5, §7 and §8 tell about it. */
export interface SpecDialog {
  /** The type name exactly as §2 spells it (`qrcodedeatils`, `add-banner`). */
  type: string;
  group: DialogGroup;
  /** The §3 entity it works on, for readers; not compared. */
  entity?: string;
  kind?: SpecDialogKind;
  /** `'METHOD /path'` exactly as an endpoint of the catalogue writes it (§7). */
  call?: string;
  /**
   * The fields the dialog sends. When omitted and `call` names an endpoint with a `body`, the
   * catalogue fills it from that body (see catalogue.ts), so a field list is written once.
   */
  fields?: readonly string[];
  /** Title of the red toast on failure (§8), spelled as the spec spells it. */
  failure?: string;
  /** Description of the success toast (§8). */
  success?: string;
  /**
   * The success toast's title when it is not the usual 'Success!' (§8: applyjob).
   * Not compared: the DSL has no such option.
   */
  successTitle?: string;
  /** The text of a delete opened without a target (§7, §8). */
  missing?: string;
  /** Why a property is left out or how a mapping was inferred. */
  note?: string;
}

/** An entity of spec §3. */
export interface SpecEntity {
  /** The name of the §3 table's row (split where one row names two entities). */
  name: string;
  /** Field names exactly as spelled; nested objects (`user (name, email)`) by their top-level name. */
  fields: readonly string[];
  /** Other labels a manifest may give the resource (compared without case, spaces or punctuation). */
  aliases?: readonly string[];
  /** False for the entities whose field lists §3 says are "not shown". */
  fieldsShown: boolean;
  note?: string;
}

/** A quoted validation message of spec §5 and the entity field it belongs to. */
export interface SpecMessage {
  /** The §3 entity whose field's rule gives the message. */
  entity?: string;
  /** Set instead of `entity` for a message of a widget rather than of an entity field (the upload widget). */
  widget?: string;
  /** Absent when §5 gives the message for several fields of the entity ("messages such as"). */
  field?: string;
  message: string;
  /** Values that make a correct rule give this message, beyond the check's general probes. */
  probes?: readonly unknown[];
}

/** A call of spec §7. */
export interface SpecEndpoint {
  method: HttpMethod;
  /** Path with `{param}`s and no query string; calls under /api (not the admin base) keep the /api prefix. */
  path: string;
  base: 'admin' | 'api';
  /** The §7 subsection it is listed under. */
  section: string;
  /** Query parameters the spec names. */
  query?: readonly string[];
  /** Body fields the spec names ("with name, image, category"). */
  body?: readonly string[];
}

/** An exact user-facing text of spec §8. */
export interface SpecText {
  /** The text; a standalone `N` stands for a number (`'Total files cannot exceed N.'`). */
  text: string;
  /** The §8 subsection. */
  section: string;
}

export interface Catalogue {
  dialogs: readonly SpecDialog[];
  entities: readonly SpecEntity[];
  messages: readonly SpecMessage[];
  endpoints: readonly SpecEndpoint[];
  errors: readonly SpecText[];
  /** §7: "A delete with a missing target shows '... is missing.'": every delete's missing text. */
  missingPattern: RegExp;
}
