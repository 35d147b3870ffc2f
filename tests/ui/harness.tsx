/** Renders the dialog host the way the app mounts it: toasts outside, react-admin context around. */
import { render } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { registry } from '../../resources/index.ts';
import { DialogHost } from '../../src/client/dialogs/DialogHost.tsx';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';

export function renderDialogHost() {
  return render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(registry)}>
        <DialogHost />
      </AdminContext>
    </ToastProvider>,
  );
}
