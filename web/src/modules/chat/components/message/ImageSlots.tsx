import { Spinner } from '../../../../ui/Spinner';

type ImageSlotsProps = { partials: (string | null)[]; streaming: boolean };

/** The partial previews of an image being generated, in their slots (section 3: three), until the image is stored. */
export function ImageSlots({ partials, streaming }: ImageSlotsProps) {
  return (
    <ul className="image-slots" aria-label="Image being generated">
      {partials.map((src, index) => (
        <li key={index} className="image-slot" data-filled={!!src || undefined}>
          {src ? (
            <img src={src} alt={`Preview ${index + 1} of the image being generated`} />
          ) : streaming ? (
            <Spinner label={`Preview ${index + 1} on its way`} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
