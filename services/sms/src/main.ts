import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { smsService } from './index';

void runServiceMain(smsService, telemetry);
