/**
 * A role's area (`/seller`, `/agent`, …): where the role lands after signing in. Its account (and the
 * referral link that brings others in under it), then how many records of each list it may use it
 * reaches (counted by the server's ownership rules), and the latest changes where it may read the
 * audit log. Another role opening the address is told it may not.
 */
import { useState } from 'react';
import { Avatar, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Title, useGetIdentity, usePermissions } from 'react-admin';
import { useRegistry } from '../registry/context.tsx';
import { AUDIT_LOG } from '../../../resources/system.ts';
import { mayList } from '../generate/access.ts';
import { AVATAR_FALLBACK } from '../providers/auth.ts';
import { AccessDeniedPage } from '../shell/FallbackPages.tsx';
import { ContentLoading } from '../shell/loading.tsx';
import { CountSections, dashboardGroups, RecentChanges, Section, WaitingSection } from '../shell/Dashboard.tsx';
import { LedgerSummary } from '../../features/checkout/client/LedgerSummary.tsx';
import { BREF_PARAM } from './referral-storage.ts';
import { AREA_TITLES, type AreaRole } from './areas.ts';

/** The link that brings someone in under the holder of `code` (spec §9 `?bref=`). */
export const referralLink = (code: string, origin = globalThis.location?.origin ?? '') => `${origin}/?${BREF_PARAM}=${encodeURIComponent(code)}`;

function ReferralLink({ code }: { code: string }) {
  const link = referralLink(code);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard here: the link is on screen to select
    }
  };
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography variant="body2" color="text.secondary">
        Your invite code: <strong>{code}</strong>
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
        <Typography component="code" variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {link}
        </Typography>
        <Button size="small" variant="outlined" onClick={copy}>
          {copied ? 'Copied' : 'Copy referral link'}
        </Button>
      </Box>
      <span role="status" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        {copied ? 'Referral link copied.' : ''}
      </span>
    </Box>
  );
}

function AccountCard() {
  const { identity } = useGetIdentity();
  if (!identity) return null;
  const code = typeof identity.inviteCode === 'string' && identity.inviteCode ? identity.inviteCode : undefined;
  return (
    <Section title="Your account">
      <Card variant="outlined">
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
          <Avatar src={String(identity.avatar ?? AVATAR_FALLBACK)} alt="" />
          <Box sx={{ minWidth: 0 }}>
            <Typography component="p" variant="subtitle1" sx={{ overflowWrap: 'anywhere' }}>
              {identity.fullName}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {String(identity.email ?? '')}
            </Typography>
            {code && <ReferralLink code={code} />}
          </Box>
        </CardContent>
      </Card>
    </Section>
  );
}

export function AreaPage({ role }: { role: AreaRole }) {
  const { permissions, isPending } = usePermissions();
  const registry = useRegistry();
  if (isPending) return <ContentLoading />;
  if (permissions !== role) return <AccessDeniedPage />;
  const groups = dashboardGroups(registry, role);
  const auditLog = registry.resources.find((r) => r.name === AUDIT_LOG);
  return (
    <Box sx={{ py: 2, px: { xs: 1, sm: 0 } }}>
      <Title title={AREA_TITLES[role]} />
      <AccountCard />
      <WaitingSection role={role} />
      <LedgerSummary role={role} />
      {groups.length ? (
        <CountSections groups={groups} />
      ) : (
        <Section title="Your lists">
          <Typography color="text.secondary">Nothing to manage here yet.</Typography>
        </Section>
      )}
      {auditLog && mayList(auditLog, role) && <RecentChanges />}
    </Box>
  );
}
