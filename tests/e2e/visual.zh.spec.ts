/** The visual check (tests/e2e/support/visualScreens.ts) of every screen in Chinese, light and dark. */
import { describeScreensIn } from './support/visualScreens';

describeScreensIn('zh');
