/**
 * The body of create, update and action dialogs: an RJSF form made from the manifest, validated by
 * the same zod rules as the server, submitted to the dialog's declared call (spec §7, §8).
 * Loaded lazily by the host: RJSF stays out of the first chunk.
 */
import { useMemo, useState } from 'react';
import { Box, DialogContent } from '@mui/material';
import { DialogButtons } from './DialogButtons.tsx';
import Form from '@rjsf/mui';
import { deepEquals, type ErrorSchema, type RegistryWidgetsType, type RJSFSchema } from '@rjsf/utils';
import { useLogoutIfAccessDenied, useRefresh } from 'react-admin';
import {
  bodySchema,
  formJsonSchema,
  pickedFields,
  type ActionDialog,
  type CreateDialog,
  type UpdateDialog,
} from '../../manifest/index.ts';
import { send } from '../providers/http.ts';
import { useToast } from '../shell/toast.tsx';
import { ReferenceWidget } from '../widgets/ReferenceWidget.tsx';
import { ImageWidget } from '../widgets/ImageWidget.tsx';
import type { DialogBodyProps } from './context.ts';
import { initialFormData } from './initial-data.ts';
import { answerOf, failureToast, fieldErrorsOf, successToast } from './outcome.ts';
import { buildUiSchema } from './ui-schema.ts';
import { createZodValidator } from './zod-validator.ts';

type Data = Record<string, unknown>;

const widgets: RegistryWidgetsType = { reference: ReferenceWidget, image: ImageWidget };

/** The server's `{ field: [messages] }` as RJSF's error schema, shown under each field. */
function toErrorSchema(byField: Record<string, string[]> | undefined): ErrorSchema<Data> | undefined {
  if (!byField) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, list] of Object.entries(byField)) {
    if (key === '_') out.__errors = list;
    else out[key] = { __errors: list };
  }
  return out as ErrorSchema<Data>;
}

export default function FormDialogBody({
  resource,
  dialog,
  data,
  onClose,
}: DialogBodyProps<CreateDialog | UpdateDialog | ActionDialog>) {
  const toast = useToast();
  const refresh = useRefresh();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const setup = useMemo(() => {
    const rule = bodySchema(resource, dialog);
    const schema = formJsonSchema(resource, dialog);
    return {
      rule,
      schema: schema as RJSFSchema,
      uiSchema: buildUiSchema(resource, dialog, schema),
      validator: createZodValidator(rule),
      fields: pickedFields(resource, dialog),
    };
  }, [resource, dialog]);
  const [formData, setFormData] = useState<Data>(() => initialFormData(resource, dialog, setup.schema, data));
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<ErrorSchema<Data>>();

  async function submit(values: Data) {
    if (busy) return; // one call at a time, whatever Enter or a double click asks
    setTried(true);
    // Send what the rule makes of the input (trimmed), the very value the server will check.
    const parsed = setup.rule.safeParse(values);
    setBusy(true);
    try {
      await send(dialog.call, { ...data }, parsed.success ? parsed.data : values);
      toast(successToast(dialog.success));
      onClose();
      refresh();
    } catch (error) {
      // The dialog stays open: nothing typed is lost, and the server's messages sit under the fields.
      toast(failureToast(dialog.failure, error, setup.fields));
      setServerErrors(toErrorSchema(fieldErrorsOf(answerOf(error))));
      if ((error as { status?: number })?.status === 401) void logoutIfAccessDenied(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <DialogContent>
      <Form
        schema={setup.schema}
        uiSchema={setup.uiSchema}
        validator={setup.validator}
        widgets={widgets}
        formData={formData}
        onChange={(e) => {
          const next = e.formData ?? {};
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
          <DialogButtons busy={busy} onCancel={onClose} busyLabel="Saving">
            {dialog.kind === 'create' ? 'Create' : 'Save'}
          </DialogButtons>
        </Box>
      </Form>
    </DialogContent>
  );
}
