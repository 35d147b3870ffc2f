/**
 * The frame of the pages people reach before signing in (sign-up, forgot password, reset): the page's
 * main landmark, a level-one heading, one form, and links back. As the sign-in page is drawn.
 */
import type { FormEvent, ReactNode } from 'react';
import { Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';

export interface SelfServiceCardProps {
  title: string;
  intro?: ReactNode;
  submitLabel: string;
  busy: boolean;
  onSubmit: () => void;
  /** Links under the form ("Back to sign in"). */
  footer?: ReactNode;
  children: ReactNode;
}

export function SelfServiceCard({ title, intro, submitLabel, busy, onSubmit, footer, children }: SelfServiceCardProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent>
          <Box component="form" noValidate onSubmit={submit}>
            <Stack spacing={2}>
              <Typography component="h1" variant="h6">
                {title}
              </Typography>
              {intro}
              {children}
              <Button
                type="submit"
                variant="contained"
                disabled={busy}
                startIcon={busy ? <CircularProgress size={16} color="inherit" aria-label="Sending" /> : undefined}
              >
                {submitLabel}
              </Button>
              {footer && (
                <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>{footer}</Box>
              )}
            </Stack>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
