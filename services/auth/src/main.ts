import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { authService } from './index';

void runServiceMain(authService, telemetry);
