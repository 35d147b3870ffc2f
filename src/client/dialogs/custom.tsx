/**
 * The hand-written dialog components a manifest may name (`component` on a dialog, DIALOG_COMPONENTS in
 * src/manifest/types.ts), each loaded when one first opens. A component gets what every dialog body
 * gets (`DialogBodyProps`) and reads its call, rules and messages from the dialog it is given.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DialogComponent, DialogDef } from '../../manifest/index.ts';
import type { DialogBodyProps } from './context.ts';

export const CUSTOM_DIALOGS: Record<DialogComponent, LazyExoticComponent<ComponentType<DialogBodyProps<DialogDef>>>> = {
  commission: lazy(() => import('../../features/commission/CommissionDialog.tsx')),
};

/** The body of a dialog drawn by its hand-written component. */
export function CustomDialogBody(props: DialogBodyProps<DialogDef> & { component: DialogComponent }) {
  const { component, ...rest } = props;
  const Component = CUSTOM_DIALOGS[component];
  return <Component {...rest} />;
}
