import type { ReactNode } from 'react';
import { Header } from './Header';

type ShellPageProps = { title: string; children: ReactNode; className: string; after?: ReactNode };

/** A page inside the chat shell other than the chat: the header with its title, and the page scrolling under it. */
export function ShellPage({ title, children, className, after }: ShellPageProps) {
  return (
    <div className="page">
      <Header title={<h1 className="header__heading">{title}</h1>} />
      <main className="page__scroll" id="main">
        <div className={className}>{children}</div>
      </main>
      {after}
    </div>
  );
}
