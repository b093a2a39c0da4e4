import { Inject, Injectable } from '@nestjs/common';
import { GroupNumberPool } from '../groups/number-pool';
import { keywordOf, type Keyword } from '../keywords';
import { GroupsRepository, type Membership } from '../store/groups.repository';
import { NumbersRepository } from '../store/numbers.repository';
import { ServiceNumbers } from '../service-numbers';
import type { InboundContext, InboundRoute } from './inbound-context';

/** `JOIN 4821`: the code of one pending invitation (the list text gives each its own). */
const JOIN_CODE = /^\s*join\s*#?\s*(\d{4})\s*[.!]?\s*$/i;

/** What the route is decided from: the text, and what the channel knows of its number. */
export interface RouteFacts {
  /** The number texted is the assistant's own (one-to-one). */
  toAssistant: boolean;
  /** The number texted is one of the group pool's. */
  toGroupNumber: boolean;
  keyword: { keyword: Keyword; word: string } | null;
  joinCode: string | null;
  optedOut: boolean;
  hasPendingJoin: boolean;
  membership: Membership | null;
}

/**
 * Where a text goes, in order of precedence: a number that is not ours is refused; STOP always
 * stops (any number of ours); START (or YES from an opted-out number) subscribes again; nothing
 * else is answered for an opted-out number; YES or a JOIN code answers the invitations waiting;
 * a text to a group number goes to the one group the sender has on it; HELP; else the assistant.
 */
export function routeOf(facts: RouteFacts): InboundRoute {
  if (!facts.toAssistant && !facts.toGroupNumber) return { kind: 'refused', status: 'refused_unknown_number' };
  const keyword = facts.keyword;
  if (keyword?.keyword === 'stop') return { kind: 'keyword', ...keyword };
  if (keyword?.keyword === 'start' && (facts.optedOut || keyword.word !== 'YES')) return { kind: 'keyword', ...keyword };
  if (facts.optedOut) return { kind: 'ignored', status: 'ignored_opted_out' };
  if (facts.joinCode) return { kind: 'join', code: facts.joinCode };
  if (keyword?.word === 'YES' && facts.hasPendingJoin) return { kind: 'join', code: null };
  if (facts.toGroupNumber)
    return facts.membership ? { kind: 'group', membership: facts.membership } : { kind: 'not_a_member', status: 'not_a_member' };
  if (keyword?.keyword === 'help') return { kind: 'keyword', ...keyword };
  return { kind: 'reply' };
}

/** Step 2: the route of the text (see routeOf), from the facts read about its number. */
@Injectable()
export class RouteStep {
  constructor(
    @Inject(ServiceNumbers) private readonly service: Pick<ServiceNumbers, 'assistant'>,
    @Inject(GroupNumberPool) private readonly pool: Pick<GroupNumberPool, 'has'>,
    @Inject(NumbersRepository) private readonly numbers: Pick<NumbersRepository, 'number'>,
    @Inject(GroupsRepository) private readonly groups: Pick<GroupsRepository, 'pendingJoins' | 'membershipOn'>,
  ) {}

  async run(ctx: InboundContext): Promise<void> {
    const { from, to, body } = ctx.text;
    const toGroupNumber = this.pool.has(to);
    const keyword = keywordOf(body);
    const [number, pending, membership] = await Promise.all([
      this.numbers.number(from),
      keyword?.word === 'YES' ? this.groups.pendingJoins(from) : Promise.resolve([]),
      toGroupNumber ? this.groups.membershipOn(from, to) : Promise.resolve(null),
    ]);
    ctx.route = routeOf({
      toAssistant: to === this.service.assistant,
      toGroupNumber,
      keyword,
      joinCode: JOIN_CODE.exec(body)?.[1] ?? null,
      optedOut: number?.optedOut ?? false,
      hasPendingJoin: pending.length > 0,
      membership,
    });
    if ('status' in ctx.route) ctx.status = ctx.route.status;
    if (ctx.route.kind === 'group') ctx.groupId = ctx.route.membership.id;
  }
}
