/**
 * Hand-written dialog components: a manifest references one by its loader (`component` on a dialog,
 * `DialogComponent` in src/manifest/types.ts), and it is loaded when such a dialog first opens. A
 * component gets what every dialog body gets (`DialogBodyProps`) and reads its call, rules and messages
 * from the dialog it is given.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DialogComponent, DialogDef } from '../../manifest/index.ts';
import type { DialogBodyProps } from './context.ts';

type Body = ComponentType<DialogBodyProps<DialogDef>>;

/** One lazy component per loader, made once: a new one at each render would remount the dialog. */
const loaded = new WeakMap<DialogComponent, LazyExoticComponent<Body>>();

function lazyOf(component: DialogComponent): LazyExoticComponent<Body> {
  let found = loaded.get(component);
  if (!found) {
    // The module's default export draws a dialog body: what the manifest layer cannot say in its types.
    found = lazy(component as () => Promise<{ default: Body }>);
    loaded.set(component, found);
  }
  return found;
}

/** The body of a dialog drawn by its hand-written component. */
export function CustomDialogBody(props: DialogBodyProps<DialogDef> & { component: DialogComponent }) {
  const { component, ...rest } = props;
  const Component = lazyOf(component);
  return <Component {...rest} />;
}
