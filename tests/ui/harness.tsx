/**
 * How the UI tests render: as the app does, with the registry given through context
 * (src/client/registry/context.tsx). `render` is testing-library's, wrapped in a `RegistryProvider` of
 * the demo manifests' registry (a test's own registry, given inside, takes its place for what it wraps);
 * `renderDialogHost` mounts the dialog host the way the app's layout does.
 */
import type { ReactElement, ReactNode } from 'react';
import { render as renderPlain, type RenderOptions } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { registry } from '../../resources/index.ts';
import { DialogHost } from '../../src/client/dialogs/DialogHost.tsx';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { RegistryProvider } from '../../src/client/registry/context.tsx';
import { ToastProvider } from '../../src/client/shell/toast.tsx';

function WithRegistry({ children }: { children: ReactNode }) {
  return <RegistryProvider registry={registry}>{children}</RegistryProvider>;
}

export function render(ui: ReactElement, options: Omit<RenderOptions, 'wrapper'> = {}) {
  return renderPlain(ui, { ...options, wrapper: WithRegistry });
}

export function renderDialogHost() {
  return render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(registry)}>
        <DialogHost />
      </AdminContext>
    </ToastProvider>,
  );
}
