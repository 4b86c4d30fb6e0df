/** The visual check of the operators' desk (tests/e2e/support/visualDesk.ts) in Chinese at 375 and 1280 px, light and dark. */
import { describeDeskScreens } from './support/visualDesk';

describeDeskScreens('zh');
