import type { AnchorHTMLAttributes, MouseEvent } from 'react';

type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'> & {
  href: string;
  /** Client-side navigation; a plain click calls it, a modified click (new tab) is left to the browser. */
  onNavigate: (href: string) => void;
};

/**
 * A real link (focusable, middle-click, long-press menu) that navigates in the app on a plain click. Components
 * stay free of the router: the route hands in `onNavigate`.
 */
export function AppLink({ href, onNavigate, ...props }: AppLinkProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onNavigate(href);
  };
  return <a href={href} onClick={onClick} {...props} />;
}
