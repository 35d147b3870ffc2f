/**
 * Messages the specification gives once for every entity (§7, §8). Entity-specific messages live in
 * the manifests beside the fields and dialogs they belong to.
 */
export const messages = {
  /** Toast title of every dialog that succeeded (§7). */
  success: 'Success!',
  /** Title of a failed delete (§8, spelled so). */
  deleteFailed: 'Someting went wrong.',
  /** The reserved name (§9). */
  reservedName: 'general',
  /** Ours: the `message` of a 400 whose `errors` say what is wrong under each field. */
  validationFailed: 'Validation failed.',
} as const;
