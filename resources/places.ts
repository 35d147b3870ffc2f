/** Money and places (spec §3, §5, §7): currencies, countries and cities. */
import { z } from 'zod';
import { defineResource, dialog, field, read, rules } from '../src/manifest/index.ts';

const access = { read: 'signedIn', write: ['admin'] } as const;
/** Spec §3: status 1 means active. Lists answer `?status=1` with the active ones. */
const status = () =>
  field.number('status', {
    rule: z.union([z.literal(0), z.literal(1)], { error: 'Status must be 1 (active) or 0.' }),
    choices: [
      { value: 1, label: 'Active', tone: 'success' },
      { value: 0, label: 'Inactive', tone: 'default' },
    ],
    default: 1,
    createdWith: 1,
    list: true,
    filterable: true,
    storage: 'integer',
  });
const byStatus = { field: 'status', param: 'status' };

export const countries = defineResource({
  name: 'countries',
  label: 'Country',
  plural: 'Countries',
  access,
  menu: { group: 'Places', icon: 'Public' },
  fields: [
    field.text('name', { rule: rules.text(2, 'Country name is required!'), list: true, searchable: true, unique: true }),
    field.text('code', { label: 'Code', rule: rules.text(2, 'Country code is required!', { length: 2, message: 'Country code has 2 letters.' }), list: true, searchable: true, unique: true, filterable: true }),
    field.text('code3', { label: 'Code (3 letters)', rule: rules.text(3, 'Country code is required!', { length: 3, message: 'Country code has 3 letters.' }), list: true, unique: true, filterable: true }),
    status(),
  ],
  reads: { list: read.list('GET /countries', { scope: byStatus }) },
  dialogs: {
    createCountry: dialog.create({
      pick: ['name', 'code', 'code3', 'status'],
      call: 'POST /countries',
      success: 'Country created successfully.',
      failure: 'Unable to create country!',
    }),
    // Ours: §7 names no country update, but a country made by mistake, or to be taken out of use, must be changeable.
    updateCountry: dialog.update({
      pick: ['name', 'code', 'code3', 'status'],
      call: 'PATCH /countries/{id}',
      success: 'Country updated successfully.',
      failure: 'Unable to update country!',
    }),
  },
});

export const cities = defineResource({
  name: 'cities',
  label: 'City',
  plural: 'Cities',
  access,
  menu: { group: 'Places', icon: 'LocationCity' },
  fields: [
    field.text('name', { rule: rules.text(1, 'City name is required!'), list: true, searchable: true }),
    field.reference('country', 'countries', { by: 'code', rule: rules.text(2, 'Country is required!'), list: true }),
  ],
  reads: { list: read.list('GET /cities') },
  dialogs: {
    createCity: dialog.create({
      pick: ['name', 'country'],
      call: 'POST /cities',
      success: 'City created successfully.',
      failure: 'Unable to create city!',
    }),
    // Ours, as the countries' update.
    updateCity: dialog.update({
      pick: ['name', 'country'],
      call: 'PATCH /cities/{id}',
      success: 'City updated successfully.',
      failure: 'Unable to update city!',
    }),
  },
});

export const currencies = defineResource({
  name: 'currencies',
  label: 'Currency',
  plural: 'Currencies',
  access,
  menu: { group: 'Places', icon: 'CurrencyExchange' },
  fields: [
    field.text('name', { rule: rules.text(1, 'Currency name is required!'), list: true, searchable: true }),
    field.text('symbal', { label: 'Symbol', rule: rules.text(1, 'Symbol is required!'), list: true }),
    field.text('code', { rule: rules.text(1, 'Currency code is required!'), list: true, searchable: true }),
    field.number('rate', { rule: z.number({ error: 'Rate is required!' }).positive('Rate must be more than 0.'), list: true }),
    // Spec §5: label and value at least 3 characters each, so the value is the 3-letter code.
    field.reference('country', 'countries', { by: 'code3', rule: rules.text(3, 'Country is required!'), list: true }),
    status(),
  ],
  reads: { list: read.list('GET /currencies', { scope: byStatus }) },
  defaultRecord: {
    read: 'GET /currencies/settings',
    write: 'PUT /currencies/settings',
    key: 'defaultCurrency',
    // Prices are shown in the default currency: an inactive one cannot be it.
    requires: {
      field: 'status',
      value: 1,
      refused: 'Only an active currency can be the default. Make it active first.',
      kept: 'The default currency must stay active. Make another currency the default first.',
    },
  },
  dialogs: {
    addCurrencyModal: dialog.create({
      pick: ['name', 'symbal', 'code', 'rate', 'country'],
      call: 'POST /currencies',
      success: 'Currency created successfully.',
      failure: 'Unable to create currency!',
      // Spec §5: currency add sends country as { label, value }; update sends it as a string.
      wire: { country: 'option' },
    }),
    updateCurrency: dialog.update({
      pick: ['name', 'symbal', 'code', 'rate', 'country', 'status'],
      call: 'PATCH /currencies/{id}',
      success: 'Currency updated successfully.',
      failure: 'Unable to update currency!',
    }),
  },
});
