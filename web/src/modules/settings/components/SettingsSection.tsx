import { useId, type ReactNode } from 'react';

type SettingsSectionProps = { title: string; children: ReactNode };

/** One section of the settings page, named by its heading. */
export function SettingsSection({ title, children }: SettingsSectionProps) {
  const titleId = useId();
  return (
    <section className="settings__section" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </section>
  );
}
