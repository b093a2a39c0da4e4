import type { SmsMessage } from '@app/contracts/sms';
import { API } from '@app/contracts/gateway';
import type { RouteResponse } from '@app/contracts/gateway/route';
import { readCall, writeCall } from '../../common/api/dataCall';
import { apiCall, routeCall } from '../../common/api/http';

// The text channel's calls, each the route the contracts declare (API.sms, API.dev) with its types.

export type { GroupChannel, SmsMe, SmsServiceInfo } from '@app/contracts/sms';
export type GroupInvite = RouteResponse<typeof API.sms.invite>;
export type GroupMember = RouteResponse<typeof API.sms.group>['members'][number];
export type GroupMessage = RouteResponse<typeof API.sms.groupMessages>['results'][number];
export type Highlight = GroupMessage['highlights'][number];
export type GroupInviteLink = RouteResponse<typeof API.sms.createInvite>;
/** A text the development inbox holds: what was sent to one number. */
export type DevSms = SmsMessage;

/** The longest group name (the contract's CreateGroupBodySchema). */
export const GROUP_NAME_MAX = 60;
export const SEARCH_LIMIT = 50;

// Public calls: no login needed, errors are the answer's detail, else `API Error: {status}`.
export const fetchSmsService = () => apiCall(API.sms.service, {});
export const fetchGroupInvite = (inviteId: string) => apiCall(API.sms.invite, { params: { invite_id: inviteId } });
export const joinGroupInvite = (inviteId: string, phoneNumber: string) =>
  apiCall(API.sms.join, { params: { invite_id: inviteId }, body: { phone_number: phoneNumber } });

// The caller's own data (bearer).
export const fetchSmsMe = () => readCall<RouteResponse<typeof API.sms.me> | null>(routeCall(API.sms.me, {}), null);
export const fetchGroups = async () => (await readCall(routeCall(API.sms.groups, {}), { groups: [] })).groups;
export const fetchGroup = (channelUrl: string) =>
  readCall<RouteResponse<typeof API.sms.group> | null>(routeCall(API.sms.group, { params: { channel_url: channelUrl } }), null);
export async function searchGroupMessages(channelUrl: string, q: string, limit = SEARCH_LIMIT): Promise<GroupMessage[]> {
  const call = routeCall(API.sms.groupMessages, { params: { channel_url: channelUrl }, query: { q, limit } });
  return (await readCall(call, { results: [] })).results;
}
export const createGroup = (name: string) => writeCall(routeCall(API.sms.createGroup, { body: { name } }));
export const createGroupInviteLink = (channelUrl: string) =>
  writeCall(routeCall(API.sms.createInvite, { params: { channel_url: channelUrl } }));
export const leaveGroup = (channelUrl: string) => writeCall(routeCall(API.sms.leaveGroup, { params: { channel_url: channelUrl } }));
export const revokeGroupInviteLink = (channelUrl: string, inviteId: string) =>
  writeCall(routeCall(API.sms.revokeInvite, { params: { channel_url: channelUrl, invite_id: inviteId } }));

// The development phone (console sender, this machine only).
export const sendDevText = (body: { from: string; body: string; to?: string }) => apiCall(API.dev.phoneInbound, { body });
export const fetchDevTexts = (to: string) => apiCall(API.dev.smsMessages, { query: { to } });
