"""What the lessons measure and trace with the algorithms: compression (lesson 08), the multilingual
tax (lessons 09 and 10), and the replay of one word's merges that the stepper and lesson 07 draw."""
