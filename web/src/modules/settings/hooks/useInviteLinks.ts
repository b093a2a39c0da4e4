import { useState, type FormEvent } from 'react';
import { useBusyAction } from '../../common/hooks/useBusyAction';
import { createInvite, INVITE_LIMITS, type CreateInvite, type Invite } from '../api/inviteApi';

const { maxUses: USES } = INVITE_LIMITS;

/** The invite form: the number of uses checked first, then the link made; the links made here, newest first. */
export function useInviteLinks() {
  const [maxUses, setMaxUses] = useState(String(USES.default));
  const [days, setDays] = useState<number>(INVITE_LIMITS.expiresInDays.default);
  const [problem, setProblem] = useState<string | null>(null);
  const [invites, setInvites] = useState<Invite[]>([]);
  const creating = useBusyAction((body: CreateInvite) => createInvite(body), {
    fallback: 'The invite could not be created.',
    onSuccess: (invite) => setInvites((list) => [invite, ...list]),
  });
  const uses = Number(maxUses);
  const usesValid = Number.isInteger(uses) && uses >= USES.min && uses <= USES.max;
  return {
    maxUses,
    setMaxUses,
    days,
    setDays,
    usesValid,
    busy: creating.busy,
    error: problem ?? creating.error,
    invites,
    submit: (event: FormEvent) => {
      event.preventDefault();
      creating.reset();
      if (!usesValid) return setProblem(`The number of uses must be a whole number from ${USES.min} to ${USES.max}.`);
      setProblem(null);
      creating.run({ max_uses: uses, expires_in_days: days });
    },
  };
}
