/** Dialog titles when a manifest gives none: made from the dialog kind and the resource label. */
import type { DialogDef, ResourceDef } from '../../manifest/index.ts';

const VERBS: Partial<Record<DialogDef['kind'], string>> = { create: 'Create', update: 'Update', remove: 'Delete' };

export function dialogTitle(type: string, resource: ResourceDef, dialog: DialogDef): string {
  if (dialog.title) return dialog.title;
  const label = inSentence(resource.label);
  const verb = VERBS[dialog.kind];
  if (verb) return `${verb} ${label}`;
  if (dialog.kind === 'details') return `${resource.label} details`;
  // An action dialog without a title: its type name, spaced out (`replaceAgentModal` → 'Replace agent modal').
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A label as it reads inside a sentence: 'Child category' → 'child category', but 'QR code' stays. */
export function inSentence(label: string): string {
  return label
    .split(' ')
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()))
    .join(' ');
}
