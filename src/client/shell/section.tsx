/** A titled part of a landing page (the dashboard, a role's area): a level-two heading and its content. */
import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
