/** The atlas' screenshots in English (tests/e2e/support/atlasScreens.ts); taken only by npm run atlas (ATLAS_SHOTS=1). */
import { describeAtlasShotsIn } from './support/atlasScreens';

describeAtlasShotsIn('en');
