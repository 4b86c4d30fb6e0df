import type { ReactNode } from 'react';

/** A screen: its heading and content in the phone column. */
export function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="page">
      <h1 className="page-title">{title}</h1>
      {children}
    </section>
  );
}
