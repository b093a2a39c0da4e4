import { Link } from 'react-router';
import { CopyButton } from '../ui/CopyButton';
import { Spinner } from '../ui/Spinner';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { useSmsService } from '../modules/sms/hooks/smsQueries';
import { formatPhone } from '../modules/sms/utils/phone';
import '../modules/sms/components/sms.css';

/** /text (public, no welcome dialog): the number to text, what it does, costs and limits, keywords, privacy. */
export function TextServicePage() {
  const { service, loading, error } = useSmsService();
  const allowance = service?.monthly_allowance;
  const segments = service?.max_segments;
  return (
    <PublicPage title="Text the assistant" subtitle="The same assistant, by text message. No app, no browser.">
      <section aria-labelledby="text-number">
        <h2 id="text-number">The number to text</h2>
        {loading ? (
          <Spinner label="Loading the number" />
        ) : error ? (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        ) : service?.phone_number ? (
          <>
            <div className="sms-number">
              <a className="sms-number__value" href={`sms:${service.phone_number}`}>
                {formatPhone(service.phone_number)}
              </a>
              <CopyButton text={service.phone_number} label="Copy the number" className="button button--secondary" />
            </div>
            <p>Save it as a contact and send it anything you would ask in the chat. Your first text is all it takes to start.</p>
          </>
        ) : (
          <p className="notice notice--info">The text service is not set up on this server yet, so there is no number to text.</p>
        )}
        {service?.dev_phone && (
          <p className="notice notice--info">
            <span>
              This is a development server: try the text service from the <Link to="/dev/phone">development phone</Link>, no real phone
              needed.
            </span>
          </p>
        )}
      </section>

      <section className="prose" aria-labelledby="text-what">
        <h2 id="text-what">What it can do</h2>
        <ul className="sms-facts">
          <li>
            <h3>The same assistant</h3>
            <p>It answers your texts just as it answers in the chat, in short replies written for a phone.</p>
          </li>
          <li>
            <h3>The same memories</h3>
            <p>Sign in on the web with the same number and it remembers what you told it in either place, in one history.</p>
          </li>
          <li>
            <h3>One account per number</h3>
            <p>Your first text creates an account for your number. Texting from another number means another account.</p>
          </li>
          <li>
            <h3>Group texts</h3>
            <p>Add it to a group text and it answers when someone names it or asks it something. Each person’s memories stay their own.</p>
          </li>
        </ul>
      </section>

      <section className="prose" aria-labelledby="text-limits">
        <h2 id="text-limits">Costs and limits</h2>
        <ul>
          <li>
            {allowance !== undefined ? (
              <>Up to {allowance} texts a month per account.</>
            ) : (
              <>There is a monthly allowance of texts per account.</>
            )}{' '}
            We text you once when you get close and once when you reach it; after that the assistant answers again next month.
          </li>
          <li>
            A text holds 160 characters, or 70 when it has emoji or letters outside the basic Latin set. A longer answer is sent in
            {segments !== undefined ? <> at most {segments} texts</> : <> a few texts</>}; for a really long one, ask in the chat.
          </li>
          <li>We send a short notice when your credit runs low.</li>
          <li>The assistant does not charge for texts, but your carrier’s message and data rates may apply.</li>
        </ul>
      </section>

      <section className="prose" aria-labelledby="text-keywords">
        <h2 id="text-keywords">Stop, help and start</h2>
        <dl className="sms-keywords">
          <dt>STOP</dt>
          <dd>
            Ends everything: you get one confirmation and then nothing more, not even notices. STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT,
            REVOKE and OPTOUT work too.
          </dd>
          <dt>HELP</dt>
          <dd>A short reminder of what the service is and how to stop it. INFO works too.</dd>
          <dt>START</dt>
          <dd>Turns replies back on after a STOP. YES and UNSTOP work too.</dd>
        </dl>
        <p className="muted">Upper or lower case, it does not matter.</p>
      </section>

      <section className="prose" aria-labelledby="text-privacy">
        <h2 id="text-privacy">Privacy</h2>
        <p>
          Your texts are kept with your account like your web conversations: you can see them in the portal, export them, or delete them
          with your account from Settings. Parts of your data (name, age, general location) may be passed to the language-model providers
          that write the answers. Read the <Link to="/privacy">Privacy Policy</Link> and the <Link to="/terms">Terms of Use</Link>; you must
          be 18 or older.
        </p>
      </section>
    </PublicPage>
  );
}
