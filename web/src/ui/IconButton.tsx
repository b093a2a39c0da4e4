import type { ComponentProps } from 'react';
import { Icon, type IconName } from './Icon';

type IconButtonProps = Omit<ComponentProps<'button'>, 'children' | 'type' | 'aria-label'> & {
  icon: IconName;
  /** The button's accessible name (it shows no text). */
  label: string;
  iconSize?: number;
  /** The compact size used in lists and message actions. */
  small?: boolean;
};

/** A button that shows only an icon, named by its label. */
export function IconButton({ icon, label, iconSize, small, className, ...rest }: IconButtonProps) {
  const classes = ['icon-button', small && 'icon-button--small', className].filter(Boolean).join(' ');
  return (
    <button type="button" className={classes} aria-label={label} {...rest}>
      <Icon name={icon} size={iconSize} />
    </button>
  );
}
