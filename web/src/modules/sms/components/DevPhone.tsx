import { normalizePhone } from '@app/contracts/sms';
import { useState } from 'react';
import './sms.css';
import type { SmsServiceInfo } from '../api/smsApi';
import { useDestinations } from '../hooks/useDestinations';
import { useDevPhone } from '../hooks/useDevPhone';
import { formatPhone } from '../utils/phone';
import { PhoneComposer } from './dev-phone/PhoneComposer';
import { PhoneThread } from './dev-phone/PhoneThread';
import { PlayedNumber } from './dev-phone/PlayedNumber';
import { TextTo } from './dev-phone/TextTo';

/** A phone-like thread to text the assistant as a chosen number, on a development server. */
export function DevPhone({ service }: { service: SmsServiceInfo }) {
  const phone = useDevPhone(true);
  const destinations = useDestinations(service);
  const [to, setTo] = useState(service.phone_number ?? '');
  const [toProblem, setToProblem] = useState<string | null>(null);

  const send = (body: string, sent: () => void) => {
    let target: string | null = null;
    if (to.trim()) {
      const checked = normalizePhone(to);
      if (!checked.ok) return setToProblem(checked.message);
      target = checked.e164;
    }
    phone.send({ body, to: target }, { onSuccess: sent });
  };

  return (
    <div className="dev-phone">
      <PlayedNumber number={phone.number} onChange={phone.setNumber}>
        <TextTo
          to={to}
          problem={toProblem}
          destinations={destinations}
          onChange={(next) => {
            setTo(next);
            setToProblem(null);
          }}
        />
      </PlayedNumber>

      {phone.closed && (
        <p className="notice notice--warning" role="status">
          The development inbox is closed on this server (DEV_SMS_INBOX off, or Twilio configured): replies will not show here.
        </p>
      )}
      <section className="phone" aria-label={`Phone ${formatPhone(phone.number)}`}>
        <header className="phone__bar">
          <span className="phone__peer">{to ? formatPhone(to) : 'Assistant'}</span>
          <span className="muted small">as {formatPhone(phone.number)}</span>
        </header>
        <PhoneThread thread={phone.thread} waiting={phone.waiting} assistant={service.phone_number} />
        {(phone.loadError || phone.sendError) && (
          <p className="notice notice--error phone__notice" role="alert">
            {phone.sendError ?? phone.loadError}
          </p>
        )}
        <PhoneComposer sending={phone.sending} maxSegments={service.max_segments} onSend={send} />
      </section>
    </div>
  );
}
