/** The operators' desk's start-up (ops.html, issue 43): filled in by the desk's shell. */
import { createRoot } from 'react-dom/client';

const container = document.getElementById('root');
if (!container) throw new Error('ops.html has no #root');
createRoot(container).render(<p>…</p>);
