/**
 * Spec §8: every exact text, by subsection, each once (misspellings kept: 'Someting', 'updated qrcode',
 * 'Inavlid', 'Opps'). "'... is missing.'" is a pattern, not a text (see `missingPattern`); its example
 * 'Category is missing.' is listed.
 */
import type { SpecText } from './types.ts';

const sections: Record<string, readonly string[]> = {
  'Create and update toasts': [
    'Unable to create category!',
    'Unable to update category!',
    'Unable to create qrcode!',
    'Unable to updated qrcode!',
    'Unable to create top category!',
    'Unable to create agent!',
    'Unable to updated site commission!',
    'Unable to create payment method!',
    'Unable to update payment method!',
    'Unable to send payout request.!',
    'Unable to update payout request.!',
    'Unable to Update AdminMenu!',
    'Unable to create message!',
    'Unable to replace agent!',
    'Unable to replace dealer!',
    'Unable to create currency!',
    'Unable to update currency!',
    'Unable to create banner!',
    'Unable to update banner!',
    'unable to update profile',
    'Unable to start chat!',
    'Unable to reject commission!',
    'Application Failed',
    'Something went wrong. Please try again.',
    // Auction update and live-sell order failures share it.
    'Something went wrong.',
  ],
  'Delete, social links, support': [
    'Someting went wrong.',
    'Category is missing.',
    'Opps',
    'Something went wrong... Please Try again later.',
    'Unable to fetch single Urgency',
    'Unable to fetch single Types',
  ],
  'Notifications and sockets': [
    'Failed to load notifications',
    'Failed to mark notification as read',
    'Failed to mark all notifications as read',
  ],
  'File validation': [
    'File Validation error',
    'Total files cannot exceed N.',
    'Validation Error',
    'Please selected files',
    'Files select error. Please select N files.',
  ],
  Push: [
    'Authentication Required',
    'Please log in to enable push notifications.',
    'Failed to Enable Push Notifications',
    'Notification permission denied',
    'Failed to register service worker',
    'VAPID public key not available',
    'Failed to save subscription on server',
    'Failed to Disable Push Notifications',
    'Service Worker not supported',
    'Notifications not supported',
    'Push notifications not supported',
    'Failed to request notification permission',
  ],
  'Sliders and affiliate': [
    'Failed to load admin data',
    'Failed to load agent data',
    'Failed to load dealer data',
    'Failed to load seller data',
  ],
  'Success messages': [
    'Success!',
    'Category created successfully.',
    'site commission updated successfully.',
    'Commission rejected successfully!',
    'Application Submitted Successfully!',
    "We'll review your application and get back to you soon.",
    'Already Applied',
    'You have already applied for this position.',
  ],
};

export const errors: readonly SpecText[] = Object.entries(sections).flatMap(([section, texts]) =>
  texts.map((text) => ({ text, section })),
);
