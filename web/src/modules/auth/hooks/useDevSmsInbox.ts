import { useEffect, useState } from 'react';
import { devSmsInboxAvailable } from '../api/authApi';

/** Whether the development SMS inbox shows the texts sent to `phoneNumber` (development servers only). */
export function useDevSmsInbox(phoneNumber: string | null): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    if (!phoneNumber) return;
    let cancelled = false;
    void devSmsInboxAvailable(phoneNumber).then((answer) => !cancelled && setAvailable(answer));
    return () => {
      cancelled = true;
    };
  }, [phoneNumber]);
  return available;
}
