/** Turns a push attempt's outcome into the app's toast (spec §8: failures are destructive toasts). */
import { useCallback } from 'react';
import { useToast } from '../../../client/shell/toast.tsx';
import { PUSH_TEXTS } from '../messages.ts';
import type { PushOutcome } from './usePush.tsx';

export function usePushToast() {
  const toast = useToast();
  return useCallback(
    (outcome: PushOutcome, done: string) => {
      if (!outcome.ok) toast({ title: outcome.failure.title, description: outcome.failure.reason || undefined, severity: 'error' });
      else if (outcome.warning) toast({ title: PUSH_TEXTS.disabled, description: outcome.warning, severity: 'warning' });
      else toast({ title: done, severity: 'success' });
    },
    [toast],
  );
}
