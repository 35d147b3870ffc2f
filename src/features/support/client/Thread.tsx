/**
 * A live thread (issue 53 points 3 and 4): the messages, oldest first; new ones arrive over the
 * session's socket (`SUPPORT_EVENTS.message`), as does who is typing on the other side. The composer
 * checks the server's rule (`replyBody`: 1 to 255 characters, §5's text) before sending, counts n/255,
 * sends on Enter (Shift+Enter: a new line), and keeps the text when sending fails.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Alert, Box, Button, LinearProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { useGetIdentity } from 'react-admin';
import { replyBody } from '../../../../resources/support-requests.ts';
import { useSocketListeners } from '../../notifications/client/SocketProvider.tsx';
import { formatDateTime } from '../../../client/generate/formats.ts';
import { SUPPORT_EVENTS, type ThreadMessage, type TypingWire } from '../contract.ts';
import { readThread, sendMessage, sendTyping, threadName, type ThreadKind } from './thread-calls.ts';
import { failureText } from './failure.ts';

/** Spec §5: a message is at most 255 characters. */
export const MAX_MESSAGE = 255;
/** How long a "typing" lasts without another keystroke. */
const TYPING_MS = 3_000;

export const THREAD_TEXTS = {
  empty: 'No messages yet. Write the first one below.',
  loadFailed: 'The conversation could not be read.',
  label: 'Your message',
  send: 'Send',
} as const;


export function Thread({ kind, id, canWrite = true }: { kind: ThreadKind; id: string; canWrite?: boolean }) {
  const { identity } = useGetIdentity();
  const me = identity?.id === undefined ? undefined : String(identity.id);
  const thread = threadName(kind, id);
  const [messages, setMessages] = useState<ThreadMessage[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string>();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const [typists, setTypists] = useState<Record<string, string>>({});
  const typingSent = useRef(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const end = useRef<HTMLDivElement>(null);

  const add = useCallback((m: ThreadMessage) => setMessages((all) => (all.some((x) => x.id === m.id) ? all : [...all, m])), []);

  const load = useCallback(() => {
    setLoading(true);
    readThread(kind, id)
      .then((all) => {
        setMessages(all);
        setLoadError(undefined);
      })
      .catch((e) => setLoadError(failureText(e) || THREAD_TEXTS.loadFailed))
      .finally(() => setLoading(false));
  }, [kind, id]);
  useEffect(load, [load]);

  useSocketListeners({
    event(name, payload) {
      if (name === SUPPORT_EVENTS.message && (payload as ThreadMessage)?.thread === thread) add(payload as ThreadMessage);
      if (name === SUPPORT_EVENTS.typing) {
        const t = payload as TypingWire;
        if (t?.thread !== thread || t.userId === me) return;
        setTypists((all) => {
          const next = { ...all };
          if (t.typing) next[t.userId] = t.name || 'Someone';
          else delete next[t.userId];
          return next;
        });
      }
    },
    // Messages sent while the socket was away are read again.
    reconnected: load,
  });

  useEffect(() => {
    // A block, not an expression: newer browsers' scrollIntoView answers a promise, which React would
    // take for the effect's cleanup.
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);

  const stopTyping = () => {
    clearTimeout(typingTimer.current);
    if (typingSent.current) sendTyping(kind, id, false);
    typingSent.current = false;
  };
  useEffect(() => stopTyping, [kind, id]); // eslint-disable-line react-hooks/exhaustive-deps

  const onChange = (value: string) => {
    setText(value);
    setError(undefined);
    if (!typingSent.current && value) sendTyping(kind, id, true);
    typingSent.current = !!value;
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(stopTyping, TYPING_MS);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (sending) return;
    const checked = replyBody.safeParse({ content: text });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    setSending(true);
    stopTyping();
    try {
      add(await sendMessage(kind, id, checked.data.content));
      setText('');
    } catch (e) {
      setError(failureText(e));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  };

  const typing = Object.values(typists);
  return (
    <Paper component="section" aria-label="Conversation" sx={{ p: 2, display: 'grid', gap: 2 }}>
      {loading && <LinearProgress aria-label="Loading the conversation" />}
      {loadError && (
        <Alert severity="error" action={<Button onClick={load}>Retry</Button>}>
          {loadError}
        </Alert>
      )}
      <Box role="log" aria-live="polite" aria-label="Messages" sx={{ display: 'grid', gap: 1, maxHeight: 480, overflowY: 'auto' }}>
        {!loading && !loadError && !messages.length && <Typography color="text.secondary">{THREAD_TEXTS.empty}</Typography>}
        {messages.map((m) => {
          const mine = m.authorId === me;
          return (
            <Box key={m.id} sx={{ justifySelf: mine ? 'end' : 'start', maxWidth: '80%' }}>
              <Typography variant="caption" color="text.secondary">
                {mine ? 'You' : m.authorName || 'Someone'}
                {m.staff && !mine ? ' (support)' : ''} · {formatDateTime(m.createdAt)}
              </Typography>
              <Paper variant="outlined" sx={{ p: 1, bgcolor: mine ? 'action.selected' : 'background.paper', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.content}
              </Paper>
            </Box>
          );
        })}
        <div ref={end} />
      </Box>
      <Typography variant="body2" color="text.secondary" aria-live="polite" sx={{ minHeight: '1.5em' }}>
        {typing.length ? `${typing.join(', ')} ${typing.length > 1 ? 'are' : 'is'} typing…` : ''}
      </Typography>
      {canWrite && (
        <Stack component="form" direction="row" spacing={1} onSubmit={submit} sx={{ alignItems: 'flex-start' }}>
          <TextField
            name="content"
            label={THREAD_TEXTS.label}
            multiline
            maxRows={6}
            fullWidth
            value={text}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={onKeyDown}
            onBlur={stopTyping}
            error={!!error}
            helperText={error ?? `${text.length}/${MAX_MESSAGE}`}
          />
          <Button type="submit" variant="contained" endIcon={<SendIcon />} disabled={sending} sx={{ mt: 1 }}>
            {THREAD_TEXTS.send}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
