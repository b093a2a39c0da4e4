import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { insiderConfigService } from './index';

void runServiceMain(insiderConfigService, telemetry);
