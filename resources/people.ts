/** People: the accounts of every role (spec §3 User profile, §6 Roles). */
import { ROLES, defineResource, field, read, rules } from '../src/manifest/index.ts';

export const users = defineResource({
  name: 'users',
  label: 'User',
  plural: 'Users',
  access: { read: ['admin'], write: ['admin'] },
  fields: [
    field.text('name', { rule: rules.text(2, 'Name is required!'), list: true, searchable: true }),
    field.email('email', { rule: rules.text(2, 'Email is required!'), list: true, searchable: true, unique: true, readOnly: true }),
    field.select('role', ROLES, { list: true }),
    field.image('image'),
    field.text('whatsapp'),
    field.text('country'),
    field.text('designation'),
    field.text('inviteCode', { readOnly: true }),
    field.password('password'),
  ],
  reads: {
    current: read.self('GET /getcurrentuser', { access: 'signedIn' }),
  },
});
