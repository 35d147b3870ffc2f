// @vitest-environment jsdom
/**
 * Details dialogs: the displays each field kind gets (money, boolean, file, select, rich text only
 * through DOMPurify), the named views (`qrcode`, `galleryImage`), and read access to them from lists.
 *
 * In jsdom, not the ui project's happy-dom: DOMPurify sanitises by parsing HTML with the DOM it runs in,
 * and happy-dom 21's parse let `<script>` through it (and dropped a `<b>`), where jsdom's keeps what a
 * browser would, so only here does the rich-text test judge the sanitising the app ships.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext } from 'react-admin';
import { registry } from '../../resources/index.ts';
import { createRegistry, defineResource, dialog, field, read } from '../../src/manifest/index.ts';
import { App } from '../../src/client/App.tsx';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { DialogHost } from '../../src/client/dialogs/DialogHost.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { fakeServer, listAnswer } from './fake-server.ts';
import { RegistryProvider } from '../../src/client/registry/context.tsx';
import { render, renderDialogHost } from './harness.tsx';

// No manifest shows money, a boolean or a file in a details dialog yet: declared here as one would.
const invoices = defineResource({
  name: 'invoices',
  label: 'Invoice',
  plural: 'Invoices',
  access: { read: 'signedIn', write: ['admin'] },
  title: 'number',
  fields: [
    field.text('number'),
    field.number('amount', { display: 'money' }),
    field.number('count'),
    field.boolean('paid'),
    field.boolean('sent'),
    field.file('pdf', { label: 'Invoice file' }),
    field.file('other', { label: 'Other file' }),
    field.select('state', ['OPEN', 'CLOSED']),
  ],
  reads: { list: read.list('GET /invoices') },
  dialogs: { invoiceDetails: dialog.details({ show: ['number', 'amount', 'count', 'paid', 'sent', 'pdf', 'other', 'state'] }) },
});
const withInvoices = createRegistry([...registry.resources, invoices]);

function renderHost(reg = withInvoices) {
  return render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(reg)}>
        <RegistryProvider registry={reg}>
          <DialogHost />
        </RegistryProvider>
      </AdminContext>
    </ToastProvider>,
  );
}

describe('field displays', () => {
  it('formats money en-US (1234.5 → $1,234.50), booleans as Yes/No chips, files as a safe link, selects as chips', async () => {
    fakeServer();
    renderHost();
    act(() =>
      openDialog('invoiceDetails', {
        id: 'i1',
        number: 'INV-7',
        amount: 1234.5,
        count: 1234.5,
        paid: true,
        sent: false,
        pdf: 'https://files.example.com/inv-7.pdf',
        other: 'javascript:alert(1)',
        state: 'OPEN',
      }),
    );
    const details = await screen.findByRole('dialog', { name: 'Invoice details' });
    expect(within(details).getByText('$1,234.50')).toBeTruthy();
    // A number without `display: 'money'` stays a plain number.
    expect(within(details).queryAllByText('$1,234.50')).toHaveLength(1);
    expect(within(details).getByText('1,234.5')).toBeTruthy();
    // A flag without declared words reads Yes / No, on a chip (issue 9: values people read).
    expect(within(details).getByText('Yes').closest('.MuiChip-root')).toBeTruthy(); // paid
    expect(within(details).getByText('No').closest('.MuiChip-root')).toBeTruthy(); // sent
    const link = within(details).getByRole('link', { name: 'Open file' });
    expect(link.getAttribute('href')).toBe('https://files.example.com/inv-7.pdf');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    // A `javascript:` URL never becomes a link.
    expect(within(details).getAllByRole('link')).toHaveLength(1);
    expect(within(details).getByText('OPEN').closest('.MuiChip-root')).toBeTruthy();
  });
});

describe('rich text', () => {
  it('shows page content only through DOMPurify: no script, no event handler attribute', async () => {
    fakeServer();
    renderDialogHost();
    (window as { hacked?: number }).hacked = 0;
    act(() =>
      openDialog('pageDetails', {
        id: 'p1',
        title: 'About us',
        slug: 'about-us',
        content:
          '<h2>Who we are</h2><p>We sell <b>shoes</b>.</p><img src="x" onerror="window.hacked=1" alt="pic"><script>window.hacked=2</script><a href="javascript:window.hacked=3">click</a>',
      }),
    );
    const details = await screen.findByRole('dialog', { name: 'Page details' });
    expect(await within(details).findByText('Who we are')).toBeTruthy();
    expect(within(details).getByText('shoes').tagName).toBe('B');
    expect(details.querySelector('script')).toBeNull();
    expect(details.querySelector('[onerror]')).toBeNull();
    expect(within(details).getByAltText('pic').getAttribute('onerror')).toBeNull();
    expect(within(details).getByText('click').getAttribute('href')).toBeNull();
    expect(details.innerHTML).not.toContain('window.hacked');
    expect((window as { hacked?: number }).hacked).toBe(0);
  });
});

describe('named views', () => {
  it('qrcodedeatils shows the QR code view: the image, its title and "Scan the qr code"', async () => {
    fakeServer();
    renderDialogHost();
    act(() => openDialog('qrcodedeatils', { id: 'q1', title: 'Summer promo', qrcode: '/images/qr/summer.png' }));
    const details = await screen.findByRole('dialog', { name: 'QR code details' });
    expect(await within(details).findByText('Scan the qr code')).toBeTruthy();
    expect(within(details).getByText('Summer promo')).toBeTruthy();
    const image = within(details).getByRole('img');
    expect(image.getAttribute('src')).toBe('/images/qr/summer.png');
    // The view, not the generic field list.
    expect(within(details).queryByText('QR code')).toBeNull();
  });

  it('media-gallery-image-details shows the gallery image view', async () => {
    fakeServer();
    renderDialogHost();
    act(() =>
      openDialog('media-gallery-image-details', {
        id: 'f1',
        url: '/images/pagefile/shoe.png',
        name: 'shoe.png',
        endpoint: 'pagefile',
        size: 2048,
      }),
    );
    const details = await screen.findByRole('dialog', { name: 'Media file details' });
    await waitFor(() => expect(details.querySelector('img[src="/images/pagefile/shoe.png"]')).toBeTruthy());
    // The generic field list would label the image 'Preview'; the view shows the picture itself.
    expect(within(details).queryByText('Preview')).toBeNull();
  });
});

describe('access', () => {
  it('offers Details to a reader of the list (details dialogs read), but no Edit', async () => {
    const buyer = { id: 'u2', name: 'Bo Buyer', email: 'bo@example.com', role: 'user', image: null };
    fakeServer({
      'GET /api/admin/v1/getcurrentuser': () => ({ body: buyer }),
      'GET /api/admin/v1/social-links/': listAnswer('socialLinks', [
        { id: 's1', name: 'Our page', link: 'https://facebook.com/ours', type: 'facebookpage' },
      ]),
    });
    window.history.replaceState({}, '', '/#/socialLinks');
    const user = userEvent.setup();
    render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
    const row = (await screen.findByText('Our page')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Edit' })).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const details = await screen.findByRole('dialog', { name: 'Social link details' });
    expect(within(details).getByText('https://facebook.com/ours')).toBeTruthy();
    // The type reads as its declared label, not its stored value (issue 9: values people read).
    expect(within(details).getByText('Facebook page')).toBeTruthy();
  });
});
