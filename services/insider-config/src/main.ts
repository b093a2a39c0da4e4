import { telemetry } from './instrument';
import { runServiceMain } from '@app/platform';
import { isOperatorCommand, runOperatorCommand } from './cli';
import { insiderConfigService } from './index';

const command = process.argv[2];
if (isOperatorCommand(command)) {
  void runOperatorCommand(command, process.argv.slice(3), telemetry).then((code) => process.exit(code));
} else {
  void runServiceMain(insiderConfigService, telemetry);
}
