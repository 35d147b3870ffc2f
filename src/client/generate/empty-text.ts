/**
 * What an empty list says, in plain words (issue 51: 'No recycle bin yet' read as nonsense): the manifest's
 * `empty` when it declares one, else 'No <plural> yet' when the plural counts things ('No categories
 * yet'), else 'The <plural> is empty' for a collective name ('The recycle bin is empty', 'The audit log
 * is empty').
 */
import type { ResourceDef } from '../../manifest/index.ts';
import { inSentence } from '../dialogs/titles.ts';

/** A plural that counts things: its last word is not its singular's and ends in s ('Categories', 'QR codes', 'Blog comments'). */
const counts = (r: Pick<ResourceDef, 'label' | 'plural'>) => r.plural !== r.label && /s$/i.test(r.plural);

export function emptyText(r: Pick<ResourceDef, 'label' | 'plural' | 'empty'>): string {
  if (r.empty) return r.empty;
  return counts(r) ? `No ${inSentence(r.plural)} yet` : `The ${inSentence(r.plural)} is empty`;
}
