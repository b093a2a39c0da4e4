import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { ttsService } from './index';

void runServiceMain(ttsService, telemetry);
