import { Header } from './Header';

/**
 * The chat's frame while the session is being checked: the header (its menu already works), the
 * page's main landmark with placeholder lines and the composer's place. It continues the skeleton
 * of index.html (same classes, styled there), so the page does not flash from one to the other.
 */
export function ChatSkeleton() {
  return (
    <div className="chat" aria-busy="true" data-chat-skeleton>
      <Header title={<span className="sk__bar sk__bar--title" aria-hidden="true" />} />
      <main className="sk__main" id="main">
        <p className="visually-hidden" role="status">
          Loading the assistant…
        </p>
        <div className="sk__body" aria-hidden="true">
          <span className="sk__bar" style={{ width: '45%', marginTop: '18vh' }} />
          <span className="sk__bar" style={{ width: '70%' }} />
          <span className="sk__bar" style={{ width: '60%' }} />
        </div>
        <div className="sk__composer" aria-hidden="true" />
      </main>
    </div>
  );
}
