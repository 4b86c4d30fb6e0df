/** The visual check of the operators' desk (tests/e2e/support/visualDesk.ts) in English at 375 px, light and dark. */
import { describeDeskScreens } from './support/visualDesk';

describeDeskScreens('en', 375);
