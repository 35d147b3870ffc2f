/**
 * The ledger's entries (issue 52 point 6; the rules are src/domain/ledger.ts): append-only, in cents,
 * written by the server in the transaction of what caused them (a checkout, a cancellation or refund,
 * a payout paid). Nobody writes them through the API and none is ever updated or deleted. A seller reads
 * its own, a dealer its team's (and its own), the admin every one (per seller with `filter={"party":…}`).
 * `GET /ledger-entries/summary` answers a seller's earned, requested, paid and due.
 */
import { defineResource, field, operation, read } from '../src/manifest/index.ts';
import { LEDGER_ACCOUNTS, LEDGER_KINDS } from '../src/domain/ledger.ts';

export const LEDGER_ENTRIES = 'ledgerEntries';

export const ledgerEntries = defineResource({
  name: LEDGER_ENTRIES,
  label: 'Ledger entry',
  plural: 'Ledger entries',
  title: 'transactionId',
  access: {
    read: ['admin', 'seller', 'dealer'],
    write: [],
    owner: { field: 'party', roles: { admin: 'all', seller: 'own', dealer: { team: 'dealerId' } } },
  },
  menu: { group: 'Money', icon: 'AccountBalanceWallet' },
  empty: 'No ledger entries yet',
  fields: [
    // The entries of one transaction share it; they sum to zero.
    field.text('transactionId', { label: 'Transaction', list: true, sortable: false, filterable: true, maxLength: 64, setOnce: true }),
    field.select('kind', LEDGER_KINDS, {
      list: true,
      setOnce: true,
      choices: [
        { value: 'checkout', label: 'Checkout' },
        { value: 'reversal', label: 'Reversal' },
        { value: 'payout', label: 'Payout' },
      ],
    }),
    field.select('account', LEDGER_ACCOUNTS, {
      list: true,
      setOnce: true,
      choices: [
        { value: 'buyer', label: 'Buyer paid' },
        { value: 'sellerPayable', label: 'Seller payable' },
        { value: 'sellerPaidOut', label: 'Seller paid out' },
        { value: 'siteCommission', label: 'Site commission' },
        { value: 'dealerCommission', label: 'Dealer commission' },
        { value: 'agentCommission', label: 'Agent commission' },
      ],
    }),
    field.reference('party', 'users', { label: 'Party', list: true, setOnce: true }),
    field.reference('order', 'orders', { label: 'Order', list: true, setOnce: true }),
    field.number('amountCents', { label: 'Amount (cents)', setOnce: true, sortable: false }),
    field.number('amount', { label: 'Amount', display: 'money', list: true, setOnce: true, sortable: false }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /ledger-entries'),
  },
  operations: {
    summary: operation('GET /ledger-entries/summary', 'ledgerSummary', { access: ['admin', 'seller', 'dealer'] }),
  },
});
