import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ThemeToggle } from '../../theme/components/ThemeToggle';

type PublicPageProps = { title: string; children: ReactNode; wide?: boolean; subtitle?: ReactNode };

/** The frame of pages outside the chat shell: brand, theme switch, content, footer links. */
export function PublicPage({ title, children, wide, subtitle }: PublicPageProps) {
  return (
    <div className="public">
      <header className="public__bar">
        <Link to="/chat" className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          <span>Assistant</span>
        </Link>
        <ThemeToggle />
      </header>
      <main className={`public__main ${wide ? 'public__main--wide' : ''}`} id="main">
        <h1>{title}</h1>
        {subtitle && <p className="public__subtitle">{subtitle}</p>}
        {children}
      </main>
      <footer className="public__footer">
        <Link to="/terms">Terms of Use</Link>
        <Link to="/privacy">Privacy Policy</Link>
        <Link to="/text">Text the assistant</Link>
        <Link to="/jobs">Jobs</Link>
        <Link to="/about">About</Link>
      </footer>
    </div>
  );
}
