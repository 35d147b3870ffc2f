/**
 * A representative's page (`/support-team/{id}`, where the support widget sends): who they are and,
 * once a conversation is started (createChatGroup, `POST /api/chat/group` {name, userId}, whose
 * `redirectUrl` names the chat: `?chat=<id>`), the live thread with them.
 */
import { useState } from 'react';
import { Alert, Avatar, Box, Button, Stack, Typography } from '@mui/material';
import ChatIcon from '@mui/icons-material/Chat';
import { Title, useGetIdentity, useGetOne, useLocation, useNavigate } from 'react-admin';
import { chatGroups } from '../../../../resources/support-requests.ts';
import { send } from '../../../client/providers/http.ts';
import { ContentLoading } from '../../../client/shell/loading.tsx';
import { SUPPORT_MESSAGES, SUPPORT_TEAM } from '../contract.ts';
import { Thread } from './Thread.tsx';

const start = chatGroups.dialogs.createChatGroup;

export function TeamMemberPage({ id }: { id: string }) {
  const { data: member, isPending, error } = useGetOne(SUPPORT_TEAM, { id });
  const { identity } = useGetIdentity();
  const chat = new URLSearchParams(useLocation().search).get('chat');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string>();

  const begin = async () => {
    if (!member || !('call' in start)) return;
    setBusy(true);
    setFailed(undefined);
    try {
      const { json } = await send(start.call, {}, { name: `Chat with ${member.name}`, userId: member.userId });
      const to = typeof json.redirectUrl === 'string' && json.redirectUrl.startsWith('/') && !json.redirectUrl.startsWith('//') ? json.redirectUrl : undefined;
      navigate(to ?? `/support-team/${id}?chat=${json.id}`);
    } catch (e) {
      setFailed((e as { message?: string })?.message || SUPPORT_MESSAGES.chatFailed);
    } finally {
      setBusy(false);
    }
  };

  if (isPending) return <ContentLoading />;
  if (error || !member)
    return (
      <Box sx={{ p: 2 }}>
        <Title title="Support team" />
        <Alert severity="error">{(error as Error | null)?.message || 'This team member could not be read.'}</Alert>
      </Box>
    );
  const self = identity && String(identity.id) === String(member.userId);
  return (
    <Box sx={{ display: 'grid', gap: 2, p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Title title="Support team" />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Avatar src={member.avatar || undefined} alt="">
          {String(member.name ?? '?').charAt(0).toUpperCase()}
        </Avatar>
        <Box>
          <Typography component="h2" variant="h6">
            {member.name}
          </Typography>
          <Typography color="text.secondary">{member.role}</Typography>
        </Box>
      </Stack>
      {failed && <Alert severity="error">{SUPPORT_MESSAGES.chatFailed} {failed !== SUPPORT_MESSAGES.chatFailed ? failed : ''}</Alert>}
      {chat ? (
        <Thread kind="chat" id={chat} />
      ) : self ? (
        <Alert severity="info">This is you: the people who write to you find their chats in Chat groups.</Alert>
      ) : (
        <Button variant="contained" startIcon={<ChatIcon />} disabled={busy} onClick={() => void begin()} sx={{ justifySelf: 'start' }}>
          Start a chat
        </Button>
      )}
    </Box>
  );
}
