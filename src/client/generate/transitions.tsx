/**
 * A record's declared state transitions as actions (src/manifest/states.ts): only those
 * `allowedTransitions` answers for the record's state and the user's role, the same function the server
 * asks. Each opens a small form of the fields the transition requires (the dialogs' own RJSF form, from
 * the rule the route judges the body with: `transitionForm`), sends it to the transition's route, then
 * toasts and refreshes as every dialog does. Offered in a list row's "More actions" menu (row-actions.tsx)
 * and as buttons of a details dialog (DetailsDialog.tsx).
 */
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogTitle } from '@mui/material';
import { useRegistry } from '../registry/context.tsx';
import { allowedTransitions, stateFields, transitionForm, type FieldTransition, type ResourceDef } from '../../manifest/index.ts';
import { DialogLoading } from '../dialogs/DialogLoading.tsx';
import { useSignedIn, withSignedIn } from './signed-in.tsx';

type Row = Record<string, unknown>;

// The dialogs' form code (RJSF), loaded when a transition's form first opens.
const FormDialogBody = lazy(() => import('../dialogs/FormDialog.tsx'));

/** The transitions `role` may make on `record` now, every states field of the resource in turn. */
export function offeredTransitions(resource: ResourceDef, record: Row | undefined, role: unknown): FieldTransition[] {
  if (!record) return [];
  return stateFields(resource).flatMap((field) => allowedTransitions(resource, field.name, record, role).map((transition) => ({ field, transition })));
}

/** A transition's form in a dialog of its own, over whatever offered it. */
function TransitionDialog({ resource, offered, record, onClose }: { resource: ResourceDef; offered: FieldTransition; record: Row; onClose: (done: boolean) => void }) {
  const titleId = useId();
  const [form] = useState(() => transitionForm(resource, offered));
  return (
    <Dialog
      open
      onClose={() => onClose(false)}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      // Drawn in a portal, but React carries its clicks up to where it is rendered: a list row, whose
      // click opens the record. A click in this form is the form's.
      onClick={(e) => e.stopPropagation()}
    >
      <DialogTitle id={titleId}>{offered.transition.label}</DialogTitle>
      <Suspense fallback={<DialogLoading label="Loading form" />}>
        {/* The record's id fills the route's {id}; its version goes out as If-Match. */}
        <FormDialogBody
          resource={form.resource}
          dialog={form.dialog}
          data={{ id: record.id, version: record.version }}
          onClose={() => onClose(true)}
          onCancel={() => onClose(false)}
        />
      </Suspense>
    </Dialog>
  );
}

/**
 * The transitions offered on `record` (a resource given by name, as lists know theirs), and the form of
 * the one chosen: `choose` opens it; `form` is to be rendered; `onDone` runs after one was made. Under a
 * `SignedInProvider` (signed-in.tsx).
 */
export function useTransitions(resource: ResourceDef | string, record: Row | undefined, onDone?: () => void) {
  const { role: permissions } = useSignedIn();
  const registry = useRegistry();
  const r = typeof resource === 'string' ? registry.resources.find((x) => x.name === resource) : resource;
  // The record it was chosen on is kept with it: a list's row may be given another record (a next page,
  // a refresh) while the form is open, and the form stays with the one it was opened for.
  const [chosen, setChosen] = useState<{ offered: FieldTransition; record: Row }>();
  const offered = r ? offeredTransitions(r, record, permissions) : [];
  const form: ReactNode =
    r && chosen ? (
      <TransitionDialog
        resource={r}
        offered={chosen.offered}
        record={chosen.record}
        onClose={(done) => {
          setChosen(undefined);
          if (done) onDone?.();
        }}
      />
    ) : null;
  const choose = (o: FieldTransition) => {
    if (record) setChosen({ offered: o, record });
  };
  return { offered, choose, form };
}

/** A details dialog's buttons: one per transition offered on its record. */
export const TransitionButtons = withSignedIn(function TransitionButtons({ resource, record, onDone }: { resource: ResourceDef; record: Row; onDone: () => void }) {
  const { offered, choose, form } = useTransitions(resource, record, onDone);
  return (
    <>
      {offered.map((o) => (
        <Button key={o.transition.name} onClick={() => choose(o)}>
          {o.transition.label}
        </Button>
      ))}
      {form}
    </>
  );
});
