import { LeftOutline } from 'antd-mobile-icons';

/**
 * The back arrow's drawing, loaded on demand by backArrow.ts. A module of the app's own, imported only dynamically:
 * importing the icon's module itself dynamically, while lazy screens import it statically, made the bundler build its
 * namespace with runtime helpers it then moved to a file of their own, which the document preloads.
 */
export const backArrowDrawing = <LeftOutline aria-hidden="true" />;
