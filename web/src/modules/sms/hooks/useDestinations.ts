import type { SmsServiceInfo } from '../api/smsApi';
import { useGroups } from './smsQueries';

/** The numbers the development phone can text: the assistant, the caller's own groups, and every group number of the pool. */
export function useDestinations(service: SmsServiceInfo): { value: string; label: string }[] {
  const { groups } = useGroups();
  const list: { value: string; label: string }[] = [];
  if (service.phone_number) list.push({ value: service.phone_number, label: 'The assistant' });
  const seen = new Set(list.map((d) => d.value));
  for (const group of groups) {
    if (!seen.has(group.phone_number)) list.push({ value: group.phone_number, label: group.name });
    seen.add(group.phone_number);
  }
  // A played number has its groups on numbers of the pool of its own: any of them may be the one.
  service.group_numbers.forEach((number, index) => {
    if (!seen.has(number)) list.push({ value: number, label: `Group number ${index + 1}` });
    seen.add(number);
  });
  return list;
}
