/**
 * Spec §5: every quoted validation message and the entity field it belongs to. "Analogous" and "the
 * same" messages are listed once per entity they apply to; a message §5 gives for several fields at
 * once ("messages such as") has no `field`. Probes are values a correct rule refuses with the message,
 * where the check's general probes would not reach it.
 */
import type { SpecMessage } from './types.ts';

const generalBan = "Category cannot be 'general'";
const long = (n: number) => 'a'.repeat(n);

export const messages: readonly SpecMessage[] = [
  // Categories
  { entity: 'Category', field: 'name', message: 'Category name is required!' },
  { entity: 'Category', field: 'name', message: generalBan },
  { entity: 'Child category', field: 'name', message: 'Child Category name is required!' },
  { entity: 'Child category', field: 'name', message: generalBan },
  // §5 quotes no required message for the sub category, only "the same 'general' ban".
  { entity: 'Sub category', field: 'name', message: generalBan },
  { entity: 'Sub-child category', field: 'name', message: 'Sub Child Category name is required!' },
  { entity: 'Sub-child category', field: 'name', message: generalBan },
  { entity: 'Category', field: 'order', message: 'Order must be 1 letter.' },
  { entity: 'Child category', field: 'image', message: 'Image is required!' },
  { entity: 'Sub category', field: 'image', message: 'Image is required!' },
  // "Parent category label and value": the child category's parent is a category.
  { entity: 'Child category', field: 'category', message: 'Parent category is required!' },

  // QR codes and top categories
  { entity: 'QR code', field: 'title', message: 'QrCode name is required!' },
  { entity: 'QR code', field: 'qrcode', message: 'qrcode is required!', probes: ['q'] },
  { entity: 'Top category', field: 'href', message: 'href is required!', probes: ['abc'] },

  // Jobs
  { entity: 'Job application', field: 'whatsapp', message: 'WhatsApp number must be at least 10 digits', probes: ['123'] },
  { entity: 'Job application', field: 'whatsapp', message: 'WhatsApp number cannot exceed 15 digits', probes: ['1234567890123456'] },
  { entity: 'Job application', field: 'whatsapp', message: 'Please enter a valid phone number', probes: ['abcdefghijkl'] },
  { entity: 'Job application', field: 'cvresume', message: 'Please upload your CV/Resume' },
  { entity: 'Job application', field: 'message', message: 'Please write at least 50 characters', probes: [long(49)] },
  { entity: 'Job application', field: 'message', message: 'Message cannot exceed 500 characters', probes: [long(501)] },

  // Agents and commissions
  { entity: 'Agent', field: 'email', message: 'enter a valid email', probes: ['not-an-email'] },
  // Site commission: "each of the five percentages … (messages such as 'amount is required!')".
  { entity: 'Product (commission view)', message: 'amount is required!', probes: [0, ''] },
  { entity: 'Agent', field: 'commission', message: 'amount is required!', probes: [''] },

  // Payments and payouts
  { entity: 'Payment method (admin)', field: 'name', message: 'Method name is required!' },
  { entity: 'Payment method (admin)', field: 'content', message: 'Content is required!', probes: ['ab'] },
  { entity: 'Payout request', field: 'name', message: 'Payment Method name is required.', probes: ['a'] },

  // Upload widget (N is the maximum, default 5)
  { widget: 'Upload', message: 'Total files cannot exceed N.' },
  { widget: 'Upload', message: 'You can only upload up to N files.' },
  { widget: 'Upload', message: 'Please selected files' },

  // Social links, support
  { entity: 'Social link', field: 'name', message: 'Name is required.', probes: ['ab'] },
  { entity: 'Social link', field: 'link', message: 'Link / Number is required.', probes: ['ab'] },
  { entity: 'Social link', field: 'type', message: 'Social Media Type is required.', probes: ['ab'] },
  { entity: 'Support chat request', field: 'content', message: 'Message must be less than, 255 characters.', probes: [long(256)] },

  // Replacement, banner, live-sell
  {
    entity: 'Agent or dealer replacement',
    field: 'password',
    message: 'Password is so week. Please enter minimum 6 letter.',
    probes: ['abcde'],
  },
  {
    entity: 'Agent or dealer replacement',
    field: 'password',
    message: 'Password is so big, Please enter password maximum 12 letters.',
    probes: ['abcdefghijklm'],
  },
  { entity: 'Banner', field: 'href', message: 'Inavlid URL.', probes: ['not a url'] },
  { entity: 'Banner', field: 'url', message: 'Inavlid Image URL.', probes: ['not a url'] },
  { entity: 'Live-sell order', field: 'status', message: 'Please select status' },
  { entity: 'Live-sell order', field: 'amount', message: 'Please enter order amount', probes: [0, '0'] },
];
