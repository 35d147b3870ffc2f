/**
 * The first form dialog of a session used to open in 200–700 ms, the later ones in 25–45 ms, with the
 * form code already loaded: the difference is the browser's and the libraries' first time through
 * (functions compiled on first call, MUI's styles serialised and inserted, styles and layout of new kinds
 * of boxes). Opening any real form dialog once made a different one's first open fast. So, while the
 * browser is idle after sign-in, the host renders this once: a dialog with a form of every plain input
 * kind, laid out but out of sight, out of the focus order and of the accessibility tree, then unmounts it.
 */
import { useEffect, useRef } from 'react';
import { Box, Dialog, DialogContent, DialogTitle } from '@mui/material';
import Form from '@rjsf/mui';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { z } from 'zod';
import { DialogButtons } from './DialogButtons.tsx';
import { templates } from './templates.tsx';
import { createZodValidator } from './zod-validator.ts';

/** One field of each plain kind the manifests declare: text, long text, number, both kinds of select, a switch. */
const schema: RJSFSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name' },
    about: { type: 'string', title: 'About', description: 'Shown under the name' },
    order: { type: 'number', title: 'Order' },
    kind: { type: 'string', title: 'Kind', enum: ['one', 'two'] },
    status: { type: 'number', title: 'Status', oneOf: [{ const: 1, title: 'Active' }, { const: 0, title: 'Inactive' }] },
    shown: { type: 'boolean', title: 'Shown' },
  },
};
const uiSchema: UiSchema = { about: { 'ui:widget': 'textarea' } };
const validator = createZodValidator(z.looseObject({}));
const noop = () => {};

/**
 * Out of sight but laid out: `visibility: hidden` still computes styles and layout (`display: none` would
 * not), `contain: strict` keeps the dialog's fixed-position boxes inside this box, `inert` keeps its inputs
 * out of the focus order and of the accessibility tree. No autofocus: the user's focus stays where it is.
 */
const OUT_OF_SIGHT = {
  position: 'fixed',
  left: -10_000,
  top: 0,
  width: 1280,
  height: 900,
  visibility: 'hidden',
  contain: 'strict',
  pointerEvents: 'none',
} as const;

/** The next frame (a timer where there are no frames, as in jsdom); answers a cancel. */
function nextFrame(task: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(task);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(task, 16);
  return () => clearTimeout(id);
}

/** Renders once, then asks to be removed two frames later (after the browser has styled and laid it out). */
export function FormWarmUp({ onDone }: { onDone: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelSecond = () => {};
    const cancelFirst = nextFrame(() => (cancelSecond = nextFrame(onDone)));
    return () => {
      cancelFirst();
      cancelSecond();
    };
  }, [onDone]);
  return (
    <Box ref={box} sx={OUT_OF_SIGHT} aria-hidden inert data-testid="form-warm-up">
      {/*
        MUI's modal manager hides from assistive technology everything in the modal's container except the
        modal's own ancestors; its container defaults to the body, which would hide the whole app (and the
        focus in it) for these frames. Its container is this box, where there is nothing else to hide.
      */}
      <Dialog
        open
        container={() => box.current}
        disablePortal
        hideBackdrop
        disableScrollLock
        disableAutoFocus
        disableEnforceFocus
        disableRestoreFocus
        transitionDuration={0}
        fullWidth
        maxWidth="sm"
        onClose={noop}
      >
        <DialogTitle>Warm-up</DialogTitle>
        <DialogContent>
          <Form schema={schema} uiSchema={uiSchema} validator={validator} templates={templates} idPrefix="warm-up" showErrorList={false} noHtml5Validate>
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 2 }}>
              <DialogButtons busy={false} onCancel={noop} busyLabel="Saving">
                Create
              </DialogButtons>
            </Box>
          </Form>
        </DialogContent>
      </Dialog>
    </Box>
  );
}
