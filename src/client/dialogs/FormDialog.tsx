/**
 * The body of create, update and action dialogs: an RJSF form made from the manifest, validated by
 * the same zod rules as the server, submitted to the dialog's declared call (spec §7, §8).
 * Fields with `fill` follow their source as the user types, and a reference that depends on another
 * (`dependsOn`) is emptied when that one changes; drawn fields (a QR code) are drawn,
 * uploaded and set as the form is submitted. Loaded lazily by the host: RJSF stays out of the first chunk.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, DialogContent } from '@mui/material';
import { DialogButtons } from './DialogButtons.tsx';
import Form from '@rjsf/mui';
import {
  deepEquals,
  type ErrorSchema,
  type RegistryFieldsType,
  type RegistryWidgetsType,
  type RJSFSchema,
} from '@rjsf/utils';
import { useGetIdentity, useLogoutIfAccessDenied, useNavigate, useRefresh } from 'react-admin';
import {
  bodySchema,
  clearDependents,
  issuesByField,
  pickedFields,
  submitLabel,
  type ActionDialog,
  type CreateDialog,
  type UpdateDialog,
} from '../../manifest/index.ts';
import { send } from '../providers/http.ts';
import { useToast } from '../shell/toast.tsx';
import { ReferenceWidget } from '../widgets/ReferenceWidget.tsx';
import { ImageWidget } from '../widgets/ImageWidget.tsx';
import { ReferenceOptionField } from '../widgets/ReferenceOptionField.tsx';
import { QrWidget, type FormContext } from '../widgets/QrWidget.tsx';
import { CountedTextareaWidget } from '../widgets/CountedTextareaWidget.tsx';
import type { DialogBodyProps } from './context.ts';
import { initialFormData } from './initial-data.ts';
import { alreadyIn, answerOf, failureToast, fieldErrorsOf, isAlreadyRefusal, redirectOf, successToast } from './outcome.ts';
import { buildUiSchema, CUSTOM } from './ui-schema.ts';
import { createZodValidator } from './zod-validator.ts';
import { drawnFields, formRuleOf, formSchemaOf } from './form-schema.ts';
import { applyComputed, applyFill, fillTargets, initialFollowing } from './form-fill.ts';
import { drawnSources, withDrawnImages } from './drawn.tsx';
import { ConflictPanel, conflictOf, ifMatchFor } from './conflict.tsx';
import { templates } from './templates.tsx';
import { useSingleTaken } from './single-taken.ts';

type Data = Record<string, unknown>;

const widgets: RegistryWidgetsType = {
  [CUSTOM.reference]: ReferenceWidget,
  [CUSTOM.image]: ImageWidget,
  [CUSTOM.qrcode]: QrWidget,
  [CUSTOM.counted]: CountedTextareaWidget,
};
const fields: RegistryFieldsType = { [CUSTOM.referenceOption]: ReferenceOptionField };

/**
 * The server's `{ field: [messages] }` as RJSF's error schema, shown under each field; an item's field
 * (`lines.0.quantity`) under that field of that item.
 */
function toErrorSchema(byField: Record<string, string[]> | undefined): ErrorSchema<Data> | undefined {
  if (!byField) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, list] of Object.entries(byField)) {
    if (key === '_') {
      out.__errors = list;
      continue;
    }
    // A plain key is one field even with a dot in it; only `<field>.<index>.…` is a path into a list.
    const path = /^[^.]+\.\d+(\.|$)/.test(key) ? key.split('.') : [key];
    let node = out;
    for (const part of path) node = (node[part] ??= {}) as Record<string, unknown>;
    node.__errors = list;
  }
  return out as ErrorSchema<Data>;
}

/** An empty value: what an untouched input holds, however RJSF spells it ('', undefined, null, {}). */
// A list of empty items (the blank line an `items` field with `min` starts with) is empty too.
const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (typeof v === 'object' && Object.values(v as object).every(isEmpty));

/** Whether the user changed the form: a value differs from the opening one, empty spellings aside. */
function hasChanges(initial: Data, current: Data): boolean {
  for (const key of new Set([...Object.keys(initial), ...Object.keys(current)])) {
    const [a, b] = [initial[key], current[key]];
    if (isEmpty(a) && isEmpty(b)) continue;
    if (!deepEquals(a, b)) return true;
  }
  return false;
}

export default function FormDialogBody({
  resource,
  dialog,
  data,
  onClose,
  onCancel = onClose,
  onDirty,
}: DialogBodyProps<CreateDialog | UpdateDialog | ActionDialog>) {
  const toast = useToast();
  const refresh = useRefresh();
  const navigate = useNavigate();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const setup = useMemo(() => {
    const rule = bodySchema(resource, dialog);
    const schema = formSchemaOf(resource, dialog);
    const picked = pickedFields(resource, dialog);
    return {
      rule,
      schema: schema as RJSFSchema,
      uiSchema: buildUiSchema(resource, dialog, schema),
      // Until submit the form is judged without its drawn fields: they are made as it is submitted.
      validator: createZodValidator(formRuleOf(resource, dialog, rule)),
      fields: picked,
      fills: fillTargets(picked),
      drawn: drawnFields(resource, dialog),
    };
  }, [resource, dialog]);
  const [initial] = useState<Data>(() => initialFormData(resource, dialog, setup.schema, data));
  const [formData, setFormData] = useState<Data>(initial);
  // Mutable bookkeeping, changed in place: the filled fields that still follow their source
  // (form-fill.ts), and the text each drawn field's current image was drawn from (drawn.tsx).
  const [following] = useState(() => initialFollowing(setup.fills, initial));
  const [drawnFrom] = useState(() => drawnSources(setup.drawn, initial));
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const [serverErrors, setServerErrors] = useState<ErrorSchema<Data>>();
  // The record an update is made against: its version goes out as If-Match. After a conflict the user
  // chooses theirs (reload) or mine (overwrite): either way the edit is then made against theirs.
  const base = useRef<Data | undefined>(data);
  const [conflict, setConflict] = useState<{ message: string; current: Data; mine: Data }>();
  const formContext = useMemo<FormContext>(() => ({ formData }), [formData]);
  // A value the user already holds where only one may be (a pending document's kind) is not offered.
  const uiSchema = useSingleTaken(resource, dialog, setup.uiSchema);
  // Closing asks first while the form holds something other than what it opened with (DialogHost).
  useEffect(() => onDirty?.(hasChanges(initial, formData)), [initial, formData, onDirty]);
  // Spec §6: one who already took part (applied for the job) is warned, and the dialog closes.
  const { identity } = useGetIdentity();
  const already = dialog.already;
  const took = !!already && alreadyIn(data, already.field, identity?.id);
  useEffect(() => {
    if (!took || !already) return;
    toast({ title: already.title, description: already.message, severity: 'warning' });
    onClose();
  }, [took, already, toast, onClose]);

  async function submit(input: Data) {
    // One call at a time, whatever Enter or a double click asks.
    if (running.current) return;
    running.current = true;
    setTried(true);
    setBusy(true);
    try {
      let values = input;
      if (setup.drawn.length) {
        try {
          values = await withDrawnImages(setup.drawn, input, drawnFrom);
        } catch (error) {
          // The image could not be made or stored: nothing is sent and the dialog stays open.
          toast(failureToast(dialog.failure, error, setup.fields, dialog.failureFallback));
          if ((error as { status?: number })?.status === 401) void logoutIfAccessDenied(error);
          return;
        }
        if (values !== input) setFormData(values);
      }
      // Send what the rule makes of the input (trimmed), the very value the server will check.
      const parsed = setup.rule.safeParse(values);
      if (!parsed.success && setup.drawn.length) {
        // Only a drawn field can fail here (the form judged the rest): its messages go under it.
        setServerErrors(toErrorSchema(issuesByField(parsed.error)));
        return;
      }
      const headers = dialog.kind === 'update' ? ifMatchFor(base.current) : undefined;
      const { json } = await send(dialog.call, { ...data }, parsed.success ? parsed.data : values, headers);
      toast(successToast(dialog.success, dialog.successTitle));
      onClose();
      refresh();
      // Spec §2: after a support chat starts, the page goes where the answer's `redirectUrl` says (a path of this app only).
      const to = redirectOf(json);
      if (to) navigate(to);
    } catch (error) {
      const stale = conflictOf(error);
      if (stale) {
        // Nothing was written: show their values beside the user's, and let the user choose.
        setConflict({ ...stale, mine: input });
        return;
      }
      if (already && isAlreadyRefusal(error, already.message)) {
        // Taken part meanwhile (another tab, a double submit): the same warning as on opening.
        toast({ title: already.title, description: already.message, severity: 'warning' });
        onClose();
        refresh();
        return;
      }
      // The dialog stays open: nothing typed is lost, and the server's messages sit under the fields.
      toast(failureToast(dialog.failure, error, setup.fields, dialog.failureFallback));
      setServerErrors(toErrorSchema(fieldErrorsOf(answerOf(error))));
      if ((error as { status?: number })?.status === 401) void logoutIfAccessDenied(error);
    } finally {
      running.current = false;
      setBusy(false);
    }
  }

  // Already taken part: the warning shows and the dialog closes (above); no form in between.
  if (took) return null;
  const theirs = conflict && initialFormData(resource, dialog, setup.schema, conflict.current);
  return (
    <DialogContent>
      {conflict && theirs && (
        <ConflictPanel
          message={conflict.message}
          fields={setup.fields}
          theirs={theirs}
          mine={conflict.mine}
          busy={busy}
          onReload={() => {
            base.current = conflict.current;
            setConflict(undefined);
            setServerErrors(undefined);
            setFormData(theirs);
          }}
          onOverwrite={() => {
            base.current = conflict.current;
            setConflict(undefined);
            void submit(conflict.mine);
          }}
        />
      )}
      <Form
        schema={setup.schema}
        uiSchema={uiSchema}
        validator={setup.validator}
        widgets={widgets}
        fields={fields}
        templates={templates}
        formContext={formContext}
        formData={formData}
        onChange={(e) => {
          // A changed parent empties the references that depend on it (src/manifest/dependent.ts).
          const changed = clearDependents(setup.fields, formData, e.formData ?? {});
          const next = applyComputed(setup.fields, formData, applyFill(setup.fills, formData, changed, following));
          // The server's field messages describe what was sent; once the user edits, they are stale.
          if (!deepEquals(next, formData)) setServerErrors(undefined);
          setFormData(next);
        }}
        onSubmit={(e) => void submit(e.formData ?? {})}
        onError={() => setTried(true)}
        liveValidate={tried ? 'onChange' : false}
        extraErrors={serverErrors}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
        disabled={busy}
      >
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 2 }}>
          <DialogButtons busy={busy} onCancel={onCancel} busyLabel="Saving">
            {submitLabel(dialog)}
          </DialogButtons>
        </Box>
      </Form>
    </DialogContent>
  );
}
// The host renders it once when idle after sign-in, from this chunk (RJSF is here, not in the first load).
export { FormWarmUp } from './warm-up.tsx';
